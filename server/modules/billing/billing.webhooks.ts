import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { ERROR_CODES } from "../../../common/error-codes";
import { DomainError } from "../../../common/domain-error";
import type { Billing, BillingDeps } from "./billing.service";
import { organizationExists } from "../organizations";
import type { models } from "./billing.provider";
import * as queues from "./billing.queues.repository";
import * as repository from "./billing.repository";

/**
 * The provider's webhooks: verified and stored by the receiver, applied later from the store by the billing
 * worker. The provider signs with the UTF-8 bytes of the whole `whsec_…` secret (not the Standard Webhooks
 * base64 convention), so the verifier gets those bytes base64-encoded; it answers the spec's exact messages.
 */
export function createWebhookVerifier(
  secret: string,
): (body: string, headers: Headers) => { id: string; type: string } {
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
      if (error instanceof WebhookVerificationError)
        throw new DomainError(ERROR_CODES.WEBHOOK_VERIFICATION_FAILED, error.message);
      throw error;
    }
    const type = (parseJson(body) as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !type)
      throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "Invalid webhook payload");
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
  const stored = await queues.insertWebhookEvent(deps.db, {
    id: delivery.id,
    type: delivery.type,
    payload: delivery.body,
  });
  if (stored) deps.nudge();
  return { duplicate: !stored };
}

type Envelope = { type: string; timestamp: string; data: Record<string, unknown> };
export type Applied = { status: "applied" | "ignored"; organizationId: string | null };
type Db = BillingDeps["db"];

/**
 * Applies one stored delivery to the organization's projection and marks it handled, in ONE transaction that
 * starts with the mark (queues.markWebhookHandled): a second applier of the same delivery waits on that row
 * and then finds it handled, and a process killed mid-way leaves the delivery pending with none of its writes, so
 * it is applied once after a restart. Answers null when the delivery was handled already.
 *
 * No provider call runs inside the transaction (on SQLite it holds the app's only connection): a grant event's
 * re-read of the customer runs before it (reading the provider's truth twice after a crash is harmless), and the
 * best-effort card refresh after a state change runs after it (one lost to a crash is healed by reconciliation).
 * Events about customers Atrium does not know, and types it does not act on, are recorded as ignored: refusing
 * them would only make the provider retry.
 */
export async function applyWebhookEvent(
  db: Db,
  billing: Billing,
  delivery: { id: string; payload: string },
): Promise<Applied | null> {
  const event = JSON.parse(delivery.payload) as Envelope;
  const organizationId = await organizationOf(db, event);
  const [resource] = event.type.split(".");
  const acted = organizationId !== null && ACTED_ON.has(resource ?? "");
  const outcome: Applied = { status: acted ? "applied" : "ignored", organizationId };
  // A grant event says something changed without the whole picture: read the customer state again.
  if (acted && resource === "benefit_grant") await billing.reconcile(organizationId);
  let stateStored = false;
  const handled = await db.transaction().execute(async (trx) => {
    if (!(await queues.markWebhookHandled(trx, delivery.id, outcome))) return false;
    if (!acted) return true;
    if (resource === "customer") stateStored = await applyCustomerEvent(trx, billing, organizationId, event);
    else if (resource !== "benefit_grant") {
      await billing.saveObject(
        resource as repository.ObjectKind,
        organizationId,
        event.data as unknown as { id: string; created_at: string; modified_at: string | null },
        trx,
      );
    }
    return true;
  });
  if (!handled) return null;
  // The card can change with the state (a checkout, a new payment method); best effort.
  if (stateStored && organizationId) await billing.refreshPaymentMethod(organizationId).catch(() => undefined);
  return outcome;
}

/** The event resources the projection follows; every other type is recorded as ignored. */
const ACTED_ON = new Set(["subscription", "order", "refund", "checkout", "benefit_grant", "customer"]);

/** Applies a `customer.*` event inside the delivery's transaction; answers whether a new customer state was stored. */
async function applyCustomerEvent(
  trx: Db,
  billing: Billing,
  organizationId: string,
  event: Envelope,
): Promise<boolean> {
  const customerId = String(event.data.id);
  if (event.type === "customer.deleted") {
    await repository.forgetCustomer(trx, { organizationId });
    return false;
  }
  if (event.type === "customer.state_changed") {
    const at = repository.isoText(event.timestamp) ?? new Date().toISOString();
    return billing.storeState(organizationId, event.data as unknown as models.CustomerState, at, trx);
  }
  await repository.saveCustomerId(trx, { organizationId }, customerId);
  return false;
}

/** The app organization an event is about: the customer's external id, else the stored customer id. */
async function organizationOf(db: Db, event: Envelope): Promise<string | null> {
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
    if (await organizationExists(db, candidate)) return candidate;
  }
  const customerId = event.type.startsWith("customer.") ? data.id : (customer?.id ?? data.customer_id);
  if (typeof customerId === "string") return (await repository.findOrganizationIdByCustomerId(db, customerId)) ?? null;
  return null;
}
