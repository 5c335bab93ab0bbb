import type { BillingContext } from "../billing.context";
import type { models } from "../billing.provider";
import * as repository from "../billing.repository";

/** Re-reads the organization's card at the provider and stores its brand and last digits (or that it has none). */
export async function refreshPaymentMethod(
  deps: Pick<BillingContext, "db" | "provider">,
  scope: repository.BillingScope,
): Promise<void> {
  const page = await deps.provider().customers.listPaymentMethodsExternal(scope.organizationId);
  const card = page.items.find((method) => method.type === "card") as models.PaymentMethodCard | undefined;
  const paymentMethod = card ? { brand: card.method_metadata.brand, last4: card.method_metadata.last4 } : null;
  await repository.savePaymentMethod(deps.db, scope, paymentMethod);
}
