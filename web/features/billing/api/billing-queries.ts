import { queryOptions } from "@tanstack/react-query";
import type { ClientResponse } from "hono/client";
import { api, apiCall } from "../../../lib/api-client";
import type { ChangePreviewQuery } from "../../../../common/billing.schemas";
import { toBillingError } from "./billing-errors";

/**
 * The billing queries route loaders start (web/app imports this module, so it stays free of formatting code):
 * keys, the overview every member may read, and the plan catalogue. Response types come from the server's route
 * types (server/api-types.ts, `BillingRoutes`).
 *
 * The overview's key starts with the organization's (`["organizations", id, …]`, as the organizations feature keys
 * its data): whatever refreshes an organization (a member invited or removed, a team created) refreshes its seat and
 * team counts too, without either feature importing the other.
 */
export const billingKeys = {
  organization: (organizationId: string) => ["organizations", organizationId, "billing"] as const,
  overview: (organizationId: string) => [...billingKeys.organization(organizationId), "overview"] as const,
  checkout: (organizationId: string, checkoutId: string) =>
    [...billingKeys.organization(organizationId), "checkouts", checkoutId] as const,
  changePreview: (organizationId: string, change: ChangePreviewQuery) =>
    [...billingKeys.organization(organizationId), "change-preview", change.productId ?? "", change.seats ?? 0] as const,
  plans: () => ["billing", "plans"] as const,
};

/** Awaits a typed client call like `apiCall`, with refusals worded for people (see billing-errors.ts). */
export function billingCall<R extends ClientResponse<unknown>>(request: R | Promise<R>): ReturnType<typeof apiCall<R>> {
  return apiCall(request).catch((error: unknown) => {
    throw toBillingError(error);
  });
}

/** The organization-scoped billing endpoints (`/api/organizations/:organizationId/billing…`). */
export const organizationBilling = api.billing.organizations[":organizationId"].billing;

/** How often a plan with metered usage is read again while the page is open: usage recorded shows within seconds. */
export const USAGE_REFRESH_MS = 5_000;

export function billingOverviewQuery(organizationId: string) {
  return queryOptions({
    queryKey: billingKeys.overview(organizationId),
    queryFn: () => billingCall(organizationBilling.$get({ param: { organizationId } })),
    refetchInterval: (query) => (query.state.data?.meters.length ? USAGE_REFRESH_MS : false),
  });
}

export type BillingOverviewData = Awaited<ReturnType<NonNullable<ReturnType<typeof billingOverviewQuery>["queryFn"]>>>;

/** The plans on offer: the same for everyone, and rarely changed. */
export const plansQuery = queryOptions({
  queryKey: billingKeys.plans(),
  queryFn: () => billingCall(api.billing.billing.plans.$get()),
  staleTime: 5 * 60_000,
});
