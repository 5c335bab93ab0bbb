import { Link } from "@tanstack/react-router";
import { useBillingOverview } from "../api/billing";
import { needsPaymentAttention } from "./billing-format";

/**
 * Shown to owners and admins on the organization's pages while its last payment failed (past due or unpaid),
 * with the way to the billing tab. Members, and organizations in good standing, see nothing.
 */
export function PaymentBanner({ organizationId, organizationName }: { organizationId: string; organizationName: string }) {
  const overview = useBillingOverview(organizationId);
  if (!overview.data?.canManage || !needsPaymentAttention(overview.data.subscription)) return null;
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 sm:flex-row sm:items-center sm:justify-between dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
    >
      <p>
        <span className="font-semibold">Payment for {organizationName} failed.</span> Update your payment method to keep {overview.data.plan.name}.
      </p>
      <Link
        to="/organizations/$organizationId/settings/billing"
        params={{ organizationId }}
        className="shrink-0 self-start rounded-lg bg-red-600 px-3 py-1.5 font-medium text-white hover:bg-red-700 sm:self-auto"
      >
        Go to billing
      </Link>
    </div>
  );
}
