import { useId } from "react";
import type { BillingMeter, PlanPrice } from "../../../../common/billing.schemas";
import { Card, CardHeader } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/page";
import { cn } from "../../../lib/cn";
import { formatCount, formatMoney, formatUnitAmount, meterPercent } from "./billing-format";

type MeterProps = { meter: BillingMeter; price: PlanPrice | undefined; currency: string | undefined };

function Meter({ meter, price, currency }: MeterProps) {
  const percent = meterPercent(meter);
  const over = Math.max(0, meter.consumed - meter.credited);
  const labelId = useId();
  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p id={labelId} className="font-medium">
          {meter.name}
        </p>
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          {formatCount(meter.consumed)} of {formatCount(meter.credited)} used
        </p>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${formatCount(meter.consumed)} of ${formatCount(meter.credited)} used`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className={cn("h-full rounded-full", percent >= 100 ? "bg-amber-500" : "bg-brand-600 dark:bg-brand-400")}
          style={{ width: `${percent}%` }}
        />
      </div>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-xs text-zinc-500 dark:text-zinc-400">Used</dt>
          <dd className="font-medium">{formatCount(meter.consumed)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500 dark:text-zinc-400">Included</dt>
          <dd className="font-medium">{formatCount(meter.credited)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500 dark:text-zinc-400">Remaining</dt>
          <dd className="font-medium">{formatCount(Math.max(0, meter.remaining))}</dd>
        </div>
      </dl>
      {over > 0 ? (
        <p className="mt-2 text-sm text-amber-700 dark:text-amber-400">
          {formatCount(over)} above what your plan includes
          {meter.overageEstimate !== null && currency
            ? `: about ${formatMoney(meter.overageEstimate, currency)} so far, added to your next invoice`
            : ""}
          {price?.meteredUnitAmount ? ` (${formatUnitAmount(price.meteredUnitAmount, price.currency)} each)` : ""}.
        </p>
      ) : null}
    </li>
  );
}

/**
 * Metered usage this billing period: used (recorded usage shows within seconds), included by the plan, remaining,
 * and the overage estimate so far in the subscription's `currency`.
 */
export function UsageCard({
  meters,
  price,
  currency,
}: {
  meters: BillingMeter[];
  price: PlanPrice | undefined;
  currency: string | undefined;
}) {
  return (
    <Card>
      <CardHeader title="Usage this period" description="Counts reset at the start of each billing period." />
      {meters.length === 0 ? (
        <EmptyState title="Nothing metered on this plan">
          Plans with included usage show how much is left here.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {meters.map((meter) => (
            <Meter key={meter.meterId} meter={meter} price={price} currency={currency} />
          ))}
        </ul>
      )}
    </Card>
  );
}
