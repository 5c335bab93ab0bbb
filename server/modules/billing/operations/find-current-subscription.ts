import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import { DomainError } from "../../../../common/domain-error";
import { isChangeable, isCurrent } from "../billing.entitlements";
import type { models } from "../billing.provider";
import * as repository from "../billing.repository";

/** The organization's current subscription (its plan), if any: the newest one not canceled or expired. */
export async function findCurrentSubscription(
  db: Kysely<Database>,
  scope: repository.BillingScope,
): Promise<models.Subscription | undefined> {
  const subscriptions = await repository.listObjects<models.Subscription>(db, scope, "subscription", 20);
  return subscriptions.find(isCurrent);
}

/** The subscription a change applies to; 409 when the organization has none that can change. */
export async function getChangeableSubscription(
  db: Kysely<Database>,
  scope: repository.BillingScope,
): Promise<models.Subscription> {
  const subscription = await findCurrentSubscription(db, scope);
  if (!subscription || !isChangeable(subscription)) {
    throw new DomainError(
      ERROR_CODES.CONFLICT,
      "This organization has no subscription to change: choose a plan to subscribe.",
    );
  }
  return subscription;
}
