import { useRef, useState, type ReactNode } from "react";
import type { BillingOrder, BillingOverview, BillingRefund } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/page";
import { MobileLabel, Table } from "../../../components/ui/table";
import { errorMessage } from "../../../lib/api-error";
import { formatDateTime, formatRelative } from "../../../lib/format";
import { useAdminOrganizationBilling, useReconcileOrganization } from "../api/admin-billing";
import { usePlans } from "../api/billing";
import { isBillingNotConfigured } from "../api/billing-errors";
import {
  CANCELLATION_REASON_LABELS,
  findPrice,
  formatDate,
  formatMoney,
  intervalWord,
  REFUND_REASON_LABELS,
  refundStatusLabel,
  subscriptionStatusWord,
} from "./billing-format";
import { AdminOrganizationBillingSkeleton } from "./billing-skeleton";
import { CurrentPlanCard } from "./current-plan-card";
import { EndSubscriptionDialog } from "./end-subscription-dialog";
import { OrdersTable } from "./orders-table";
import { RefundDialog, refundableAmount } from "./refund-dialog";
import { UsageCard } from "./usage-card";

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="mt-0.5 font-medium">{children}</dd>
    </div>
  );
}

/** The statuses an operator can cancel from (the provider refuses the others). */
const CANCELABLE_STATUSES: ReadonlyArray<string> = ["trialing", "active", "past_due"];

function SubscriptionCard({ organizationId, overview }: { organizationId: string; overview: BillingOverview }) {
  const subscription = overview.subscription;
  const [isEnding, setEnding] = useState(false);
  const title = useRef<HTMLHeadingElement>(null);
  const isCancelable = subscription !== null && CANCELABLE_STATUSES.includes(subscription.status);
  return (
    <Card>
      <CardHeader
        title="Subscription"
        titleRef={title}
        action={
          isCancelable ? (
            <Button variant="secondary" size="sm" onClick={() => setEnding(true)}>
              Cancel subscription
            </Button>
          ) : null
        }
      />
      {subscription ? (
        <EndSubscriptionDialog
          organizationId={organizationId}
          subscription={subscription}
          open={isEnding}
          onOpenChange={setEnding}
          fallbackFocus={title}
        />
      ) : null}
      {subscription ? (
        <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Detail label="Status">{subscriptionStatusWord(subscription.status)}</Detail>
          <Detail label="Price">
            {formatMoney(subscription.amount, subscription.currency)} / {intervalWord(subscription.recurringInterval)}
          </Detail>
          <Detail label="Current period">
            {formatDate(subscription.currentPeriodStart)} – {formatDate(subscription.currentPeriodEnd)}
          </Detail>
          {subscription.seats != null ? <Detail label="Seats">{subscription.seats}</Detail> : null}
          <Detail label="Renewal">
            {subscription.cancelAtPeriodEnd
              ? "Cancels at the end of the period"
              : subscription.status === "canceled"
                ? "None"
                : subscription.status === "past_due"
                  ? "Last payment failed; the provider retries it"
                  : subscription.status === "unpaid"
                    ? "Payments failed repeatedly"
                    : `Renews on ${formatDate(subscription.currentPeriodEnd)}`}
          </Detail>
          {subscription.canceledAt ? <Detail label="Canceled on">{formatDate(subscription.canceledAt)}</Detail> : null}
          {subscription.endsAt ? <Detail label="Access ends">{formatDate(subscription.endsAt)}</Detail> : null}
          {subscription.cancellationReason ? (
            <Detail label="Cancellation reason">
              {CANCELLATION_REASON_LABELS[subscription.cancellationReason as keyof typeof CANCELLATION_REASON_LABELS] ??
                subscription.cancellationReason}
            </Detail>
          ) : null}
          {subscription.discountId ? <Detail label="Discount">{subscription.discountId}</Detail> : null}
          <Detail label="Provider ID">
            <span className="font-mono text-xs">{subscription.id}</span>
          </Detail>
        </dl>
      ) : (
        <EmptyState title="No subscription">This organization is on the Free plan.</EmptyState>
      )}
    </Card>
  );
}

function RefundsTable({ refunds, orders }: { refunds: BillingRefund[]; orders: BillingOrder[] }) {
  if (refunds.length === 0) return <EmptyState title="No refunds" />;
  const ordersById = new Map(orders.map((order) => [order.id, order]));
  return (
    <Table label="Refunds" columns={["Date", "Payment", "Amount", "Reason", "Status"]}>
      {refunds.map((refund) => {
        const order = ordersById.get(refund.orderId);
        return (
          <tr key={refund.id}>
            <td className="py-3 pr-4 whitespace-nowrap max-sm:col-start-1 max-sm:row-start-3 max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
              <MobileLabel>Refunded on </MobileLabel>
              {formatDate(refund.createdAt)}
            </td>
            <td className="py-3 pr-4 max-sm:col-span-2 max-sm:row-start-2 max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
              {order ? (
                <>
                  <MobileLabel>Of </MobileLabel>
                  {`${formatMoney(order.totalAmount, order.currency)} paid on ${formatDate(order.createdAt)}`}
                </>
              ) : (
                "An earlier payment"
              )}
            </td>
            <td className="py-3 pr-4 font-medium whitespace-nowrap max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right">
              {formatMoney(refund.amount, refund.currency)}
            </td>
            <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1 max-sm:font-medium">
              {REFUND_REASON_LABELS[refund.reason as keyof typeof REFUND_REASON_LABELS] ?? refund.reason}
            </td>
            <td className="py-3 pr-4 max-sm:col-start-2 max-sm:row-start-3 max-sm:text-right">
              <Badge
                tone={refund.status === "succeeded" ? "success" : refund.status === "failed" ? "danger" : "neutral"}
              >
                {refundStatusLabel(refund.status)}
              </Badge>
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/**
 * One organization's billing for platform admins, as a panel of the console's organization page (which shows the
 * organization's name): plan, subscription, payments with refunds, usage, and a sync with the provider.
 */
export function AdminOrganizationBillingPanel({ organizationId }: { organizationId: string }) {
  const billing = useAdminOrganizationBilling(organizationId);
  const reconcile = useReconcileOrganization(organizationId);
  // The catalogue only adds the plan's price to the card; the panel works without it.
  const plans = usePlans();
  const [refunding, setRefunding] = useState<BillingOrder | null>(null);
  const paymentsTitle = useRef<HTMLHeadingElement>(null);

  if (billing.isPending) return <AdminOrganizationBillingSkeleton />;
  if (isBillingNotConfigured(billing.error)) {
    return (
      <Alert tone="info" title="Billing is not set up">
        <p>{errorMessage(billing.error)}</p>
      </Alert>
    );
  }
  if (billing.isError) {
    return (
      <Alert tone="error" title="This organization's billing could not load">
        <p>{errorMessage(billing.error)}</p>
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          onClick={() => billing.refetch()}
          isLoading={billing.isFetching}
        >
          Try again
        </Button>
      </Alert>
    );
  }

  const { overview, refunds } = billing.data;
  const syncedAt = overview.syncedAt;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p aria-live="polite" className="text-sm text-zinc-500 dark:text-zinc-400">
          {reconcile.isPending ? (
            "Reading subscriptions, orders and benefits from the payment provider…"
          ) : syncedAt ? (
            <span title={formatDateTime(syncedAt)}>
              Last synced with the payment provider {formatRelative(syncedAt)}
            </span>
          ) : (
            "Never synced with the payment provider"
          )}
        </p>
        <Button variant="secondary" onClick={() => reconcile.mutate()} isLoading={reconcile.isPending}>
          {reconcile.isPending ? "Syncing with provider…" : "Sync with provider"}
        </Button>
      </div>
      <CurrentPlanCard overview={overview} plans={plans.data?.plans} />
      <SubscriptionCard organizationId={organizationId} overview={overview} />
      <Card>
        <CardHeader
          title="Payments"
          description="Refund a payment in full or in part; the provider returns the money to the card."
          titleRef={paymentsTitle}
        />
        <OrdersTable
          orders={overview.orders}
          action={(order) =>
            refundableAmount(order) > 0 && (order.status === "paid" || order.status === "partially_refunded") ? (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setRefunding(order)}
                aria-label={`Refund the payment of ${formatDate(order.createdAt)}`}
              >
                Refund
              </Button>
            ) : null
          }
        />
      </Card>
      <Card>
        <CardHeader title="Refunds" />
        <RefundsTable refunds={refunds} orders={overview.orders} />
      </Card>
      <UsageCard
        meters={overview.meters}
        price={findPrice(plans.data?.plans ?? [], overview.subscription?.productId)?.price}
        currency={overview.subscription?.currency}
      />
      <RefundDialog
        organizationId={organizationId}
        order={refunding}
        onClose={() => setRefunding(null)}
        fallbackFocus={paymentsTitle}
      />
    </div>
  );
}
