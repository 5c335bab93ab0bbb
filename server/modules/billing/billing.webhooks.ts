import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { ERROR_CODES } from "../../../common/error-codes";
import { AppError } from "../../http/errors";
import type { Billing, BillingDeps } from "./billing.service";
import type { models } from "./billing.provider";
import * as repository from "./billing.repository";

/**
 * The provider's webhooks: verified and stored by the receiver, applied later from the store by the billing
 * worker. The provider signs with the UTF-8 bytes of the whole `whsec_…` secret (not the Standard Webhooks
 * base64 convention), so the verifier gets those bytes base64-encoded; it answers the spec's exact messages.
 */
export function createWebhookVerifier(secret: string): (body: string, headers: Headers) => { id: string; type: string } {
  const verifier = new Webhook(Buffer.from(secret, "utf8").toString("base64"));
  return (body, headers) => {
    const signed = {
      "webhook-id": headers.get("webhook-id") ?? "",
      "webhook-timestamp": headers.get("webhook-timestamp") ?? "",
      "webhook-signature": headers.get("webhook-signature") ?? "",
    };
    try {
      verifier.verify(body, signed, { jsonParse: false });
    } catch (error) {
      if (error instanceof WebhookVerificationError) throw new AppError(ERROR_CODES.WEBHOOK_VERIFICATION_FAILED, error.message);
      throw error;
    }
    const type = (parseJson(body) as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !type) throw new AppError(ERROR_CODES.VALIDATION_ERROR, "Invalid webhook payload");
    return { id: signed["webhook-id"], type };
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Stores a verified delivery and wakes the worker: answered at once, applied from the store. */
export async function receiveWebhook(
  deps: Pick<BillingDeps, "db" | "nudge">,
  delivery: { id: string; type: string; body: string },
): Promise<{ duplicate: boolean }> {
  const stored = await repository.insertWebhookEvent(deps.db, { id: delivery.id, type: delivery.type, payload: delivery.body });
  if (stored) deps.nudge();
  return { duplicate: !stored };
}

type Envelope = { type: string; timestamp: string; data: Record<string, unknown> };
export type Applied = { status: "applied" | "ignored"; organizationId: string | null };

/**
 * Applies one stored event to the organization's projection. Events about customers Atrium does not know, and
 * types it does not act on, are recorded as ignored: refusing them would only make the provider retry.
 */
export async function applyWebhookEvent(deps: Pick<BillingDeps, "db">, billing: Billing, payload: string): Promise<Applied> {
  const event = JSON.parse(payload) as Envelope;
  const organizationId = await organizationOf(deps, event);
  if (!organizationId) return { status: "ignored", organizationId: null };
  const data = event.data;
  const [resource] = event.type.split(".");
  switch (resource) {
    case "subscription":
    case "order":
    case "refund":
    case "checkout":
      await billing.saveObject(resource, organizationId, data as unknown as { id: string; created_at: string; modified_at: string | null });
      break;
    case "benefit_grant":
      // A grant event says something changed without the whole picture: read the customer state again.
      await billing.reconcile(organizationId);
      break;
    case "customer":
      await applyCustomerEvent(deps, billing, organizationId, event);
      break;
    default:
      return { status: "ignored", organizationId };
  }
  return { status: "applied", organizationId };
}

async function applyCustomerEvent(deps: Pick<BillingDeps, "db">, billing: Billing, organizationId: string, event: Envelope): Promise<void> {
  const customerId = String(event.data.id);
  if (event.type === "customer.deleted") {
    await repository.forgetCustomer(deps.db, organizationId);
    return;
  }
  if (event.type === "customer.state_changed") {
    const at = repository.isoText(event.timestamp) ?? new Date().toISOString();
    if (await billing.storeState(organizationId, event.data as unknown as models.CustomerState, at)) {
      // The card can change with the state (a checkout, a new payment method); best effort.
      await billing.refreshPaymentMethod(organizationId).catch(() => undefined);
    }
    return;
  }
  await repository.saveCustomerId(deps.db, organizationId, customerId);
}

/** The app organization an event is about: the customer's external id, else the stored customer id. */
async function organizationOf(deps: Pick<BillingDeps, "db">, event: Envelope): Promise<string | null> {
  const data = event.data ?? {};
  const customer = (data.customer ?? null) as { id?: unknown; external_id?: unknown } | null;
  const metadata = (data.metadata ?? {}) as Record<string, unknown>;
  const candidates = [
    event.type.startsWith("customer.") ? data.external_id : undefined,
    customer?.external_id,
    data.external_customer_id,
    metadata.organization_id,
  ].filter((value): value is string => typeof value === "string" && value.length > 0);
  for (const candidate of candidates) {
    if (await repository.organizationExists(deps.db, candidate)) return candidate;
  }
  const customerId = event.type.startsWith("customer.") ? data.id : (customer?.id ?? data.customer_id);
  if (typeof customerId === "string") return (await repository.findOrganizationIdByCustomerId(deps.db, customerId)) ?? null;
  return null;
}
