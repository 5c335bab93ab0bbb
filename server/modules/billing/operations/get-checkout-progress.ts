import type { Kysely } from "kysely";
import type { CheckoutProgress } from "../../../../common/billing.schemas";
import { ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import { DomainError } from "../../../../common/domain-error";
import type { BillingContext } from "../billing.context";
import { stateOf } from "../billing.projection";
import { isNotFound, toProviderError, type models } from "../billing.provider";
import * as repository from "../billing.repository";

/** Where a checkout stands for its return page: "confirming" until the provider's webhook has reached the app. */
export async function getCheckoutProgress(
  deps: Pick<BillingContext, "db" | "provider">,
  scope: repository.BillingScope,
  checkoutId: string,
): Promise<CheckoutProgress> {
  let checkout: models.Checkout;
  try {
    checkout = await deps.provider().checkouts.get(checkoutId);
  } catch (error) {
    if (isNotFound(error)) throw new DomainError(ERROR_CODES.NOT_FOUND, "checkout not found");
    throw toProviderError("read the checkout", error);
  }
  const { organizationId } = scope;
  if (checkout.external_customer_id !== organizationId && checkout.metadata.organization_id !== organizationId) {
    throw new DomainError(ERROR_CODES.NOT_FOUND, "checkout not found");
  }
  return checkoutProgressOf(deps.db, scope, checkout);
}

/** A checkout's progress from what the app has stored: completed once its subscription and state have arrived. */
export async function checkoutProgressOf(
  db: Kysely<Database>,
  scope: repository.BillingScope,
  checkout: models.Checkout,
): Promise<CheckoutProgress> {
  const base = { id: checkout.id, productId: checkout.product_id ?? "" };
  if (checkout.status === "failed") return { ...base, state: "declined" };
  if (checkout.status === "expired") return { ...base, state: "expired" };
  if (checkout.status === "open") return { ...base, state: "open" };
  const subscriptions = await repository.listObjects<models.Subscription>(db, scope, "subscription", 20);
  const subscription = subscriptions.find((candidate) => candidate.checkout_id === checkout.id);
  // Complete once the page can show the whole new plan: the subscription, and the customer state that lists it
  // (its benefits and meters). A payment still needing action has no such state yet.
  const customer = subscription ? await repository.findCustomer(db, scope) : undefined;
  const state = stateOf(customer);
  const arrived =
    subscription !== undefined &&
    (subscription.status === "incomplete" ||
      (state?.active_subscriptions ?? []).some((active) => active.id === subscription.id));
  return { ...base, state: arrived ? "completed" : "confirming" };
}
