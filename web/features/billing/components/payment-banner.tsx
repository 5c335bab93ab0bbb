import { Link, useMatchRoute } from "@tanstack/react-router";
import { Button } from "../../../components/ui/button";
import { useBillingOverview, useOpenPortal } from "../api/billing";
import { needsPaymentAttention } from "./billing-format";

const linkClass =
  "shrink-0 self-start rounded-lg bg-red-600 px-3 py-1.5 font-medium text-white hover:bg-red-700 sm:self-auto";

/**
 * Shown to owners and admins on the organization's pages while its last payment failed (past due or unpaid),
 * with the way to the billing tab, or, on the billing tab itself, straight to the provider's portal where the
 * card is updated. Members, and organizations in good standing, see nothing.
 */
export function PaymentBanner({
  organizationId,
  organizationName,
}: {
  organizationId: string;
  organizationName: string;
}) {
  const overview = useBillingOverview(organizationId);
  const portal = useOpenPortal(organizationId);
  const isOnBilling = Boolean(
    useMatchRoute()({ to: "/organizations/$organizationId/settings/billing", params: { organizationId } }),
  );
  if (!overview.data?.canManage || !needsPaymentAttention(overview.data.subscription)) return null;
  const isPortalBusy = portal.isPending || portal.isSuccess;
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 sm:flex-row sm:items-center sm:justify-between dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
    >
      <p>
        <span className="font-semibold">Payment for {organizationName} failed.</span> Update your payment method to keep{" "}
        {overview.data.plan.name}.
      </p>
      {isOnBilling ? (
        <Button
          variant="danger"
          size="sm"
          className="shrink-0 self-start sm:self-auto"
          onClick={() => portal.mutate()}
          isLoading={isPortalBusy}
        >
          Update payment method
        </Button>
      ) : (
        <Link to="/organizations/$organizationId/settings/billing" params={{ organizationId }} className={linkClass}>
          Go to billing
        </Link>
      )}
    </div>
  );
}
