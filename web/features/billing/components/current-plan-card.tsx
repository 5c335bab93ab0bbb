import type { ReactNode, Ref } from "react";
import type { BillingOverview, Plan } from "../../../../common/billing.schemas";
import { Badge } from "../../../components/ui/badge";
import { Card, CardHeader } from "../../../components/ui/card";
import { formatRelative } from "../../../lib/format";
import {
  discountSentence,
  findPrice,
  formatCount,
  formatPrice,
  paymentMethodLabel,
  renewalSentence,
  subscriptionStatus,
} from "./billing-format";

/**
 * The organization's plan: name and status, what happens next and for how much, seats, the card on file.
 * `action` sits in the header (the portal button), `children` below the details (cancel, resume); `titleRef` is the
 * card's title, where the page puts focus when a change removed what had it.
 */
export function CurrentPlanCard({
  overview,
  plans,
  action,
  children,
  titleRef,
}: {
  overview: BillingOverview;
  plans?: Plan[];
  action?: ReactNode;
  children?: ReactNode;
  titleRef?: Ref<HTMLHeadingElement>;
}) {
  const { subscription, paymentMethod, seats } = overview;
  const status = subscriptionStatus(subscription);
  const price = findPrice(plans ?? [], subscription?.productId ?? overview.plan.productId)?.price;

  return (
    <Card>
      <CardHeader title="Current plan" action={action} titleRef={titleRef} />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <p className="text-2xl font-semibold tracking-tight">{overview.plan.name}</p>
        {subscription ? <Badge tone={status.tone}>{status.label}</Badge> : null}
      </div>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        {renewalSentence(subscription, new Date(), overview.canManage)}
        {subscription?.discount ? ` ${discountSentence(subscription.discount)}` : ""}
      </p>
      <dl className="mt-5 grid gap-4 text-sm sm:grid-cols-3">
        {price ? (
          <div>
            <dt className="text-zinc-500 dark:text-zinc-400">Price</dt>
            <dd className="mt-0.5 font-medium">{formatPrice(price)}</dd>
          </div>
        ) : null}
        {subscription?.seats != null ? (
          <div>
            <dt className="text-zinc-500 dark:text-zinc-400">Seats</dt>
            <dd className="mt-0.5 font-medium">
              {formatCount(subscription.seats)} paid · {formatCount(seats.used)} in use
            </dd>
          </div>
        ) : (
          <div>
            <dt className="text-zinc-500 dark:text-zinc-400">Seats</dt>
            <dd className="mt-0.5 font-medium">
              {seats.limit === null
                ? `${formatCount(seats.used)} used, no limit`
                : `${formatCount(seats.used)} of ${formatCount(seats.limit)} used`}
            </dd>
          </div>
        )}
        {paymentMethod ? (
          <div>
            <dt className="text-zinc-500 dark:text-zinc-400">Payment method</dt>
            <dd className="mt-0.5 font-medium">{paymentMethodLabel(paymentMethod)}</dd>
          </div>
        ) : null}
      </dl>
      {children ? <div className="mt-6 flex flex-wrap gap-2">{children}</div> : null}
      {overview.syncedAt ? (
        <p className="mt-5 text-xs text-zinc-500 dark:text-zinc-400">
          Last updated from the payment provider {formatRelative(overview.syncedAt)}.
        </p>
      ) : null}
    </Card>
  );
}
