import type { OperatorCancellationBody } from "../../../../common/billing.schemas";
import { DomainError } from "../../../../common/domain-error";
import { ERROR_CODES } from "../../../../common/error-codes";
import type { AuditContext } from "../../audit";
import type { BillingContext } from "../billing.context";
import { isChangeable, planNameOf } from "../billing.entitlements";
import { callProvider } from "../billing.provider";
import type { BillingScope } from "../billing.repository";
import { findCurrentSubscription } from "./find-current-subscription";
import { saveAudited } from "./save-provider-object";

/**
 * An operator ends an organization's subscription (when nobody in it can): at the end of the paid period, or now
 * (the provider revokes it). Stored from the provider's answer with the audit entry, which carries the reason; a
 * refused call records nothing.
 */
export async function endSubscription(
  deps: Pick<BillingContext, "db" | "provider">,
  scope: BillingScope,
  body: OperatorCancellationBody,
  audit: AuditContext,
): Promise<void> {
  const subscription = await findCurrentSubscription(deps.db, scope);
  if (!subscription || !isChangeable(subscription)) {
    throw new DomainError(ERROR_CODES.CONFLICT, "This organization has no subscription to cancel.");
  }
  if (body.when === "period_end" && subscription.cancel_at_period_end) {
    throw new DomainError(ERROR_CODES.CONFLICT, "This subscription already ends with its current period.");
  }
  const updated = await callProvider("cancel the subscription", () =>
    body.when === "now"
      ? deps.provider().subscriptions.revoke(subscription.id)
      : deps.provider().subscriptions.update(subscription.id, { cancel_at_period_end: true }),
  );
  await saveAudited(deps.db, scope, { kind: "subscription", object: updated }, audit, {
    action: "billing.subscription_canceled",
    target: { type: "subscription", id: updated.id, label: planNameOf(updated.product) },
    organization: { id: scope.organizationId },
    reason: body.reason,
    details: { when: body.when },
  });
}
