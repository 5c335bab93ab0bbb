import {
  FREE_PLAN_LIMITS,
  type BillingOverview,
  type Entitlements,
  type LimitedResource,
  type PlanLimits,
  type SubscriptionStatus,
} from "../../../common/billing.schemas";
import type { models } from "./billing.provider";

/** Pure: what an organization's plan entitles it to (features, member and team limits). No I/O. */

/** Statuses whose subscription is still the organization's plan; canceled and incomplete_expired ones are history. */
const CURRENT_STATUSES: readonly SubscriptionStatus[] = ["incomplete", "trialing", "active", "past_due", "unpaid"];
/** Statuses a subscription can be changed in (a new checkout would be a second subscription). */
const CHANGEABLE_STATUSES: readonly SubscriptionStatus[] = ["trialing", "active", "past_due"];

/** Whether a subscription in this status is still the organization's plan. */
export function isCurrent(subscription: { status: string }): boolean {
  return CURRENT_STATUSES.includes(subscription.status as SubscriptionStatus);
}

/** Whether a subscription in this status can be changed (plan, seats, cancel, resume). */
export function isChangeable(subscription: { status: string }): boolean {
  return CHANGEABLE_STATUSES.includes(subscription.status as SubscriptionStatus);
}

/** "Pro monthly" and "Pro yearly" are both the Pro plan. */
export function planNameOf(product: { name: string }): string {
  return product.name.replace(/\s+(monthly|yearly)$/i, "");
}

/** A product's plan: its `plan` metadata, else the product itself. */
export function planKeyOf(product: { metadata: Record<string, unknown>; id: string }): string {
  const plan = product.metadata.plan;
  return typeof plan === "string" && plan ? plan : product.id;
}

export function freePlanSummary(): BillingOverview["plan"] {
  return { key: "free", name: "Free", productId: null };
}

/**
 * A benefit's metadata sets a limit with `limit_members` / `limit_teams`: a number, or "unlimited". The highest
 * grant wins; with none, the free plan's limit stays.
 */
export function limitsOf(metadata: Array<Record<string, unknown>>): PlanLimits {
  const limits: PlanLimits = { ...FREE_PLAN_LIMITS };
  for (const resource of ["members", "teams"] as const) {
    const values = metadata.map((entry) => entry[`limit_${resource}`]).filter((value) => value !== undefined);
    if (values.length === 0) continue;
    if (values.some((value) => value === "unlimited")) limits[resource] = null;
    else {
      const numbers = values.map(Number).filter((value) => Number.isInteger(value) && value >= 0);
      if (numbers.length) limits[resource] = Math.max(...numbers);
    }
  }
  return limits;
}

/** Features and limits from the granted benefits' metadata; a per-seat plan's seats bound its members meanwhile. */
export function entitlementsFrom(
  state: models.CustomerState | undefined,
  subscription: models.Subscription | undefined,
): Entitlements {
  const grants = state?.granted_benefits ?? [];
  const named = grants
    .map((grant) => grant.benefit_metadata.feature)
    .filter((feature): feature is string => typeof feature === "string");
  const limits = limitsOf(grants.map((grant) => grant.benefit_metadata));
  if (subscription?.seats != null && isChangeable(subscription)) limits.members = subscription.seats;
  return { features: [...new Set(named)], limits };
}

/**
 * Why adding more of a resource is refused: the plan's name and limit, and what to do about it (seats can be added
 * only to a plan bought per seat).
 */
export function limitReachedMessage(resource: LimitedResource, plan: string, limit: number, perSeat: boolean): string {
  return resource === "members"
    ? `The ${plan} plan includes ${limit} seats and all are used by members and pending invitations. ` +
        (perSeat ? "Upgrade the plan or add seats to invite more." : "Upgrade the plan to invite more.")
    : `The ${plan} plan includes ${limit} teams. Upgrade the plan to create more.`;
}
