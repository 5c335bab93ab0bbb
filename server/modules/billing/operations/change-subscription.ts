import type { BillingOverview, SubscriptionChangeBody } from "../../../../common/billing.schemas";
import type { AuditContext } from "../../audit";
import type { BillingContext, SubscriptionChange } from "../billing.context";
import { planNameOf } from "../billing.entitlements";
import type { BillingScope } from "../billing.repository";
import { cancelSubscription } from "./cancel-subscription";
import { changePlan } from "./change-plan";
import { changeSeats } from "./change-seats";
import { getChangeableSubscription } from "./find-current-subscription";
import { getOverview } from "./get-overview";
import { resolveChange } from "./preview-change";
import { resumeSubscription } from "./resume-subscription";
import { saveAudited } from "./save-provider-object";

type Deps = Pick<BillingContext, "db" | "provider" | "catalogue" | "meters">;

/**
 * One change of the organization's subscription (plan with its seats, seats, cancel or resume), made
 * at the provider and stored from its answer with the audit entry; answers the overview after it.
 */
export async function changeSubscription(
  deps: Deps,
  scope: BillingScope,
  roles: string[],
  body: SubscriptionChangeBody,
  audit: AuditContext,
): Promise<BillingOverview> {
  const subscription = await getChangeableSubscription(deps.db, scope);
  // 503 before any check of the body when billing is not configured.
  deps.provider();
  let change: SubscriptionChange;
  if (body.productId !== undefined || body.seats !== undefined) {
    const target = await resolveChange(deps, scope, subscription, body);
    change = target.productChanges
      ? await changePlan(deps, subscription, target)
      : await changeSeats(deps, subscription, target.seats as number);
  } else if (body.cancelAtPeriodEnd === true) change = await cancelSubscription(deps, subscription, body);
  else change = await resumeSubscription(deps, subscription);
  const { updated, event } = change;
  await saveAudited(deps.db, scope, { kind: "subscription", object: updated }, audit, {
    ...event,
    target: { type: "subscription", id: updated.id, label: planNameOf(updated.product) },
    organization: { id: scope.organizationId },
  });
  return getOverview(deps, scope, roles);
}
