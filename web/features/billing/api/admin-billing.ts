import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ClientResponse } from "hono/client";
import type { OperatorCancellationBody, RefundBody } from "../../../../common/billing.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { formatMoney } from "../components/billing-format";
import { toBillingError } from "./billing-errors";
import { billingKeys } from "./billing-queries";

/** The platform admins' view of one organization's billing: its orders and refunds, reconciliation. */
export const adminBillingKeys = {
  all: ["admin", "billing"] as const,
  organization: (organizationId: string) => [...adminBillingKeys.all, "organization", organizationId] as const,
};

/**
 * Every view of the console: after a refund or a sync the organizations list (plan and status) and the audit log
 * (the refund's entry), the admin feature's queries under ["admin"], refresh along with this feature's own.
 */
const consoleKey = ["admin"] as const;

function adminBillingCall<R extends ClientResponse<unknown>>(request: R | Promise<R>): ReturnType<typeof apiCall<R>> {
  return apiCall(request).catch((error: unknown) => {
    throw toBillingError(error, "admin");
  });
}

export function useAdminOrganizationBilling(organizationId: string) {
  return useQuery({
    queryKey: adminBillingKeys.organization(organizationId),
    queryFn: () =>
      adminBillingCall(api.adminBilling.organizations[":organizationId"].$get({ param: { organizationId } })),
  });
}

export type AdminRefundResult = Awaited<ReturnType<ReturnType<typeof useRefundOrder>["mutateAsync"]>>;

/** Refunds (part of) an order; its errors are shown by the refund form, and its result by the dialog. */
export function useRefundOrder(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundBody) =>
      adminBillingCall(
        api.adminBilling.organizations[":organizationId"].refunds.$post({ param: { organizationId }, json: body }),
      ),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: consoleKey }),
        queryClient.invalidateQueries({ queryKey: billingKeys.organization(organizationId) }),
      ]);
    },
    meta: {
      successMessage: (refund: { amount: number; currency: string }) =>
        `Refund of ${formatMoney(refund.amount, refund.currency)} sent to the payment provider`,
      errorToast: false,
    },
  });
}

/** Reads the organization's subscription, orders and benefits from the provider again and stores what differs. */
export function useReconcileOrganization(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      adminBillingCall(
        api.adminBilling.organizations[":organizationId"].reconcile.$post({ param: { organizationId } }),
      ),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: consoleKey }),
        queryClient.invalidateQueries({ queryKey: billingKeys.organization(organizationId) }),
      ]);
    },
    meta: { successMessage: "Billing is in sync with the payment provider" },
  });
}

/** Ends the organization's subscription at the end of its period or at once; the dialog shows errors itself. */
export function useEndSubscription(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OperatorCancellationBody) =>
      adminBillingCall(
        api.adminBilling.organizations[":organizationId"].subscription.cancel.$post({
          param: { organizationId },
          json: body,
        }),
      ),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: consoleKey }),
        queryClient.invalidateQueries({ queryKey: billingKeys.organization(organizationId) }),
      ]);
    },
    meta: {
      successMessage: (_data: unknown, body: OperatorCancellationBody) =>
        body.when === "now" ? "The subscription has ended" : "The subscription ends with its current period",
      errorToast: false,
    },
  });
}
