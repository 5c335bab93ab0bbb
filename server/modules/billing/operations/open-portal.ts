import type { UrlResponse } from "../../../../common/billing.schemas";
import { billingPageUrl, type BillingContext } from "../billing.context";
import { callProvider } from "../billing.provider";
import type { BillingScope } from "../billing.repository";
import { ensureCustomer } from "./ensure-customer";

/** Opens the provider's customer portal for the organization (its cards and invoices); answers where to go. */
export async function openPortal(
  deps: Pick<BillingContext, "db" | "provider" | "baseUrl">,
  scope: BillingScope,
): Promise<UrlResponse> {
  await ensureCustomer(deps, scope);
  const session = await callProvider("open the billing portal", () =>
    deps.provider().customerSessions.create({
      external_customer_id: scope.organizationId,
      return_url: billingPageUrl(deps.baseUrl, scope.organizationId),
    }),
  );
  return { url: session.customer_portal_url, redirect: true };
}
