import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ChangePreviewQuery,
  CheckoutBody,
  CheckoutProgress,
  SubscriptionChangeBody,
} from "../../../../common/billing.schemas";
import { useRequireFresh } from "../../../lib/fresh-authentication";
import { CHECKOUT_MESSAGES, formatDate } from "../components/billing-format";
import {
  billingCall,
  billingKeys,
  billingOverviewQuery,
  organizationBilling,
  plansQuery,
  type BillingOverviewData,
} from "./billing-queries";

/** An organization's billing as hooks: reading it (the queries are in billing-queries.ts), and the owners' and admins' actions. */

export function useBillingOverview(organizationId: string) {
  return useQuery(billingOverviewQuery(organizationId));
}

export function usePlans(enabled = true) {
  return useQuery({ ...plansQuery, enabled });
}

/**
 * The states a followed checkout stays in. Open is one: the page follows a checkout only once the buyer is back from
 * the hosted page, which pays before it sends them back, so an open checkout was left unpaid.
 */
const SETTLED_CHECKOUT_STATES: ReadonlyArray<CheckoutProgress["state"]> = ["completed", "declined", "expired", "open"];

export function isCheckoutSettled(state: CheckoutProgress["state"] | undefined): boolean {
  return state !== undefined && SETTLED_CHECKOUT_STATES.includes(state);
}

export const CHECKOUT_POLL_INTERVAL_MS = 1000;

/**
 * A checkout the buyer came back from, asked about every second until it settles (completed, declined, expired).
 * `enabled: false` stops asking (the page gives up after a minute and offers a retry).
 */
export function useCheckoutProgress(organizationId: string, checkoutId: string, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: billingKeys.checkout(organizationId, checkoutId),
    queryFn: () =>
      billingCall(organizationBilling.checkouts[":checkoutId"].$get({ param: { organizationId, checkoutId } })),
    enabled,
    staleTime: 0,
    refetchInterval: (query) =>
      enabled && query.state.status !== "error" && !isCheckoutSettled(query.state.data?.state)
        ? CHECKOUT_POLL_INTERVAL_MS
        : false,
  });
}

/**
 * After a checkout completes: the overview is read again (the new plan, its limits, the order) and the person is
 * told which plan they are on now.
 */
export function useFinishCheckout(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await queryClient.invalidateQueries({ queryKey: billingKeys.organization(organizationId), refetchType: "none" });
      return queryClient.fetchQuery({ ...billingOverviewQuery(organizationId), staleTime: 0 });
    },
    meta: { successMessage: (overview: BillingOverviewData) => CHECKOUT_MESSAGES.completed(overview.plan.name) },
  });
}

/** What a plan or seat change would cost now and on the next invoice. Asked fresh each time; off while `null`. */
export function useChangePreview(organizationId: string, change: ChangePreviewQuery | null) {
  return useQuery({
    queryKey: billingKeys.changePreview(organizationId, change ?? {}),
    queryFn: () =>
      billingCall(
        organizationBilling["change-preview"].$get({
          param: { organizationId },
          query: {
            ...(change?.productId ? { productId: change.productId } : {}),
            ...(change?.seats ? { seats: String(change.seats) } : {}),
          },
        }),
      ),
    enabled: change !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** Sends the browser to the payment provider's hosted page (checkout or portal), in the same tab. */
export function openProviderPage(url: string) {
  window.location.assign(url);
}

/**
 * Starts a checkout and sends the browser to the provider's hosted page; the form shows a refusal. The mutation
 * stays successful while the page unloads, so callers keep the button busy with `isPending || isSuccess`.
 */
export function useStartCheckout(organizationId: string) {
  return useMutation({
    mutationFn: async (body: CheckoutBody) => {
      const { url } = await billingCall(organizationBilling.checkout.$post({ param: { organizationId }, json: body }));
      openProviderPage(url);
    },
    meta: { errorToast: false },
  });
}

/** Opens the provider's customer portal (payment method, invoices), in the same tab. */
export function useOpenPortal(organizationId: string) {
  return useMutation({
    mutationFn: async () => {
      const { url } = await billingCall(organizationBilling.portal.$post({ param: { organizationId } }));
      openProviderPage(url);
    },
  });
}

type SubscriptionMeta = {
  successMessage: (overview: BillingOverviewData, body: SubscriptionChangeBody) => string;
  errorToast?: false;
};

/**
 * One change to the subscription (a plan, a seat count, cancel or resume); the answer is the new overview. It needs
 * a recent sign-in: the re-check dialog asks for one when the server says so.
 */
function useSubscriptionChange(organizationId: string, meta: SubscriptionMeta) {
  const queryClient = useQueryClient();
  const requireFresh = useRequireFresh();
  return useMutation({
    mutationFn: (body: SubscriptionChangeBody) =>
      requireFresh(() =>
        billingCall(organizationBilling.subscription.$post({ param: { organizationId }, json: body })),
      ),
    onSuccess: async (overview) => {
      queryClient.setQueryData(billingKeys.overview(organizationId), overview);
      // Seats and limits feed the members and teams pages; previews are stale after any change.
      await queryClient.invalidateQueries({
        queryKey: billingKeys.organization(organizationId),
        predicate: (query) => query.queryKey[3] !== "overview",
      });
    },
    meta,
  });
}

export function useChangePlan(organizationId: string) {
  return useSubscriptionChange(organizationId, {
    successMessage: (overview) => CHECKOUT_MESSAGES.completed(overview.plan.name),
  });
}

/** Its errors are shown by the seats form. */
export function useChangeSeats(organizationId: string) {
  return useSubscriptionChange(organizationId, {
    successMessage: (_overview, { seats }) => `Your plan now has ${seats} seat${seats === 1 ? "" : "s"}`,
    errorToast: false,
  });
}

/** Its errors are shown by the cancellation form. */
export function useCancelSubscription(organizationId: string) {
  return useSubscriptionChange(organizationId, {
    successMessage: (overview) => {
      const subscription = overview.subscription;
      const end = subscription ? (subscription.endsAt ?? subscription.currentPeriodEnd) : null;
      return end
        ? `Subscription canceled. ${overview.plan.name} stays active until ${formatDate(end)}.`
        : "Subscription canceled";
    },
    errorToast: false,
  });
}

export function useResumeSubscription(organizationId: string) {
  return useSubscriptionChange(organizationId, {
    successMessage: (overview) =>
      overview.subscription
        ? `${overview.plan.name} will renew on ${formatDate(overview.subscription.currentPeriodEnd)}`
        : "Your subscription continues",
  });
}
