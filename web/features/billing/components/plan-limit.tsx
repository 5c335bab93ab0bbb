import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { BillingOverview, LimitedResource } from "../../../../common/billing.schemas";
import { useBillingOverview } from "../api/billing";
import { formatCount } from "./billing-format";

export type PlanLimitState = {
  resource: LimitedResource;
  used: number;
  limit: number | null;
  isReached: boolean;
  /** Whether the plan is bought per seat, so seats can be added (the Free plan's cannot). */
  hasSeats: boolean;
};

/**
 * How much of a plan limit is used. Seats come from the overview (members and pending invitations, as the server
 * counts them); teams are counted by the page that lists them, so it passes `used`.
 */
export function planLimitState(
  overview: Pick<BillingOverview, "seats" | "entitlements" | "subscription">,
  resource: LimitedResource,
  used?: number,
): PlanLimitState | undefined {
  const hasSeats = overview.subscription?.seats != null;
  if (resource === "members") {
    const { used: seatsUsed, limit } = overview.seats;
    return { resource, used: seatsUsed, limit, isReached: limit !== null && seatsUsed >= limit, hasSeats };
  }
  if (used === undefined) return undefined;
  const limit = overview.entitlements.limits.teams;
  return { resource, used, limit, isReached: limit !== null && used >= limit, hasSeats };
}

const plural = (count: number, word: string) => `${formatCount(count)} ${word}${count === 1 ? "" : "s"}`;

/** "Seats: 3 of 5", "3 members, unlimited", "Teams: 2 of 3". */
export function planUsageText({ resource, used, limit }: PlanLimitState): string {
  if (limit === null) return `${plural(used, resource === "members" ? "member" : "team")}, unlimited`;
  return `${resource === "members" ? "Seats" : "Teams"}: ${formatCount(used)} of ${formatCount(limit)}`;
}

/** What the locked state says: what the plan includes, and what unlocks more. */
export function planLimitText({ resource, limit, hasSeats }: PlanLimitState): string {
  const included = limit ?? 0;
  return resource === "members"
    ? `Your plan includes ${plural(included, "seat")}. ${hasSeats ? "Upgrade or add seats" : "Upgrade"} to invite more.`
    : `Your plan includes ${plural(included, "team")}. Upgrade to create more teams.`;
}

/** Takes the place of a create form's submit button once the plan's limit is reached, with the way to billing. */
export function PlanLimitNotice({ organizationId, state }: { organizationId: string; state: PlanLimitState }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 sm:flex-row sm:items-center sm:justify-between dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="flex items-start gap-2">
        <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="mt-0.5 size-4 shrink-0">
          <path d="M10 2a4 4 0 0 0-4 4v2H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-1V6a4 4 0 0 0-4-4zm2 6V6a2 2 0 1 0-4 0v2h4z" />
        </svg>
        <span>{planLimitText(state)}</span>
      </p>
      <Link
        to="/organizations/$organizationId/settings/billing"
        params={{ organizationId }}
        className="shrink-0 self-start rounded-lg bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700 sm:self-auto"
      >
        {state.resource === "members" && state.hasSeats ? "Upgrade or add seats" : "See plans"}
      </Link>
    </div>
  );
}

/**
 * A plan limit for another feature's page, which web/app passes in (features do not import each other): `usage`
 * is the line that says how much is used, `locked` replaces the create form's submit once the limit is reached.
 * Undefined while the overview loads or cannot be read: the server enforces the limit anyway.
 */
export function usePlanLimit(
  organizationId: string,
  resource: LimitedResource,
  used?: number,
): { usage: ReactNode; locked?: ReactNode } | undefined {
  const overview = useBillingOverview(organizationId);
  const state = overview.data ? planLimitState(overview.data, resource, used) : undefined;
  if (!state) return undefined;
  return {
    usage: planUsageText(state),
    locked: state.isReached ? <PlanLimitNotice organizationId={organizationId} state={state} /> : undefined,
  };
}
