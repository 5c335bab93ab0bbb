import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { queueWebhookEvent } from "../../webhooks";
import type { models } from "../billing.provider";
import { isoText, stateOf } from "../billing.projection";
import * as repository from "../billing.repository";

/**
 * Stores a customer state. A webhook's state carries the time it was sent (`at`) and is kept only when newer
 * than the stored one; a state read from the provider just now (no `at`) is the truth and always kept.
 * When the organization's subscriptions differ from the stored ones, a `subscription.updated` webhook event is queued
 * in the same transaction (none for a state that changed nothing of them).
 */
export async function storeCustomerState(
  db: Kysely<Database>,
  scope: repository.BillingScope,
  state: models.CustomerState,
  at: string | undefined,
): Promise<boolean> {
  const stored = await repository.findCustomer(db, scope);
  const storedAt = stored?.state_at ?? null;
  const stamp =
    at ??
    [storedAt, new Date().toISOString()]
      .filter((value): value is string => value !== null)
      .sort()
      .at(-1)!;
  if (at !== undefined && storedAt !== null && at < storedAt) return false;
  const saved = await repository.saveCustomerState(db, scope, {
    json: JSON.stringify(state),
    at: stamp,
    customerId: state.id,
  });
  const subscriptions = subscriptionsOf(state);
  const before = stateOf(stored);
  if (saved && JSON.stringify(subscriptions) !== JSON.stringify(before ? subscriptionsOf(before) : [])) {
    await queueWebhookEvent(db, {
      organizationId: scope.organizationId,
      type: "subscription.updated",
      data: { organizationId: scope.organizationId, subscriptions },
    });
  }
  return saved;
}

/** What a `subscription.updated` event tells of the customer's active subscriptions. */
function subscriptionsOf(state: models.CustomerState) {
  return (state.active_subscriptions ?? []).map((subscription) => ({
    id: subscription.id,
    status: subscription.status,
    productId: subscription.product_id,
    amount: subscription.amount,
    currency: subscription.currency,
    recurringInterval: subscription.recurring_interval,
    currentPeriodEnd: isoText(subscription.current_period_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endsAt: isoText(subscription.ends_at),
  }));
}
