import { useId, useState } from "react";
import {
  RECURRING_INTERVALS,
  type BillingOverview,
  type Plan,
  type PlanPrice,
  type RecurringInterval,
} from "../../../../common/billing.schemas";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { cn } from "../../../lib/cn";
import {
  formatMoney,
  formatPrice,
  formatSeatTotal,
  hasChangeableSubscription,
  intervalWord,
  planActionLabel,
  priceFor,
} from "./billing-format";
import { initialSeats, seatFormSchema } from "./seat-schema";

/** A plan the person picked: a checkout when the organization has no subscription, a change when it has one. */
export type PlanChoice = { mode: "checkout" | "change"; plan: Plan; price: PlanPrice; seats?: number };

/** What a year costs less than twelve months, when the plan has both prices. */
function yearlySaving(plan: Plan): string | null {
  const monthly = plan.prices.find((price) => price.interval === "month");
  const yearly = plan.prices.find((price) => price.interval === "year");
  if (!monthly || !yearly || monthly.currency !== yearly.currency) return null;
  const saving = monthly.amount * 12 - yearly.amount;
  return saving > 0 ? `Save ${formatMoney(saving, yearly.currency)} a year compared with monthly` : null;
}

function IntervalToggle({
  value,
  onChange,
}: {
  value: RecurringInterval;
  onChange: (interval: RecurringInterval) => void;
}) {
  const name = useId();
  return (
    <fieldset className="inline-flex rounded-lg border border-zinc-300 p-0.5 dark:border-zinc-700">
      <legend className="sr-only">Billing period</legend>
      {RECURRING_INTERVALS.map((interval) => (
        <label
          key={interval}
          className="relative cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium text-zinc-700 has-checked:bg-brand-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-500 dark:text-zinc-300 dark:has-checked:text-white"
        >
          <input
            type="radio"
            name={name}
            value={interval}
            checked={value === interval}
            onChange={() => onChange(interval)}
            className="absolute inset-0 cursor-pointer appearance-none opacity-0"
          />
          {interval === "month" ? "Monthly" : "Yearly"}
        </label>
      ))}
    </fieldset>
  );
}

function Check() {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
      className="mt-0.5 size-4 shrink-0 text-brand-600 dark:text-brand-400"
    >
      <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z" />
    </svg>
  );
}

/** The seat count of a per-seat plan bought through a checkout, with the total it comes to. */
function SeatPicker({
  price,
  inUse,
  label,
  onChoose,
}: {
  price: PlanPrice;
  inUse: number;
  label: string;
  onChoose: (seats: number) => void;
}) {
  const limits = { minSeats: price.minSeats, maxSeats: price.maxSeats, inUse };
  const form = useZodForm(seatFormSchema(limits), { defaultValues: { seats: initialSeats(limits) } });
  const seats = form.watch("seats");
  return (
    <form noValidate onSubmit={form.submit(({ seats: chosen }) => onChoose(chosen))} className="space-y-3">
      <TextField
        label="Seats"
        type="number"
        inputMode="numeric"
        min={price.minSeats ?? 1}
        max={price.maxSeats ?? undefined}
        step={1}
        description={
          Number.isInteger(seats) && seats > 0
            ? `${seats} seat${seats === 1 ? "" : "s"}: ${formatSeatTotal(price, seats)}`
            : undefined
        }
        {...form.field("seats", { valueAsNumber: true })}
      />
      <Button type="submit" className="w-full">
        {label}
      </Button>
    </form>
  );
}

function PlanCard({
  plan,
  current,
  interval,
  overview,
  canManage,
  onChoose,
  onChooseFree,
}: {
  plan: Plan;
  /** The organization's plan and what it pays per month now (0 on Free). */
  current: { key: string; monthly: number };
  interval: RecurringInterval;
  overview: BillingOverview;
  canManage: boolean;
  onChoose: (choice: PlanChoice) => void;
  onChooseFree: () => void;
}) {
  const price = priceFor(plan, interval);
  const currentProductId = overview.plan.productId;
  const isCurrentPlan = plan.key === overview.plan.key;
  const isCurrent =
    isCurrentPlan && (price === undefined || price.productId === currentProductId || currentProductId === null);
  const mode = hasChangeableSubscription(overview.subscription) ? "change" : "checkout";
  const headingId = useId();
  const saving = interval === "year" && price?.interval === "year" ? yearlySaving(plan) : null;
  const label = price ? planActionLabel(current, plan, price, overview.seats.used) : "";

  return (
    <li
      aria-labelledby={headingId}
      className={cn(
        "flex flex-col rounded-xl border p-5",
        isCurrent
          ? "border-brand-500 ring-1 ring-brand-500 dark:border-brand-400 dark:ring-brand-400"
          : "border-zinc-200 dark:border-zinc-800",
      )}
    >
      <div className="flex items-start justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          {plan.name}
        </h3>
        {isCurrent ? <Badge tone="brand">Current plan</Badge> : null}
      </div>
      {plan.description ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{plan.description}</p> : null}
      <p className="mt-4 text-lg font-semibold">{price ? formatPrice(price) : "Free"}</p>
      {price && price.interval !== interval ? (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          Billed {price.interval === "month" ? "monthly" : "yearly"} only
        </p>
      ) : null}
      {saving ? <p className="text-xs font-medium text-emerald-700 dark:text-emerald-400">{saving}</p> : null}
      {price?.meteredUnitAmount ? (
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">
          Usage above what the plan includes is billed per unit.
        </p>
      ) : null}
      <ul className="mt-4 flex-1 space-y-2 text-sm" aria-label={`What ${plan.name} includes`}>
        {plan.includes.map((line) => (
          <li key={line} className="flex gap-2">
            <Check />
            <span>{line}</span>
          </li>
        ))}
      </ul>
      {canManage ? (
        <div className="mt-5">
          {isCurrent ? (
            <p className="text-center text-sm font-medium text-zinc-500 dark:text-zinc-400">You are on this plan</p>
          ) : !price ? (
            overview.subscription?.cancelAtPeriodEnd || mode === "checkout" ? (
              <p className="text-center text-sm text-zinc-500 dark:text-zinc-400">
                Your organization moves to {plan.name} when the current period ends.
              </p>
            ) : (
              <Button className="w-full" variant="secondary" onClick={onChooseFree}>
                Switch to {plan.name}
              </Button>
            )
          ) : price.perSeat && (mode === "checkout" || overview.subscription?.seats == null) ? (
            <SeatPicker
              price={price}
              inUse={overview.seats.used}
              label={label}
              onChoose={(seats) => onChoose({ mode, plan, price, seats })}
            />
          ) : (
            <Button
              className="w-full"
              variant={isCurrentPlan ? "secondary" : "primary"}
              onClick={() => onChoose({ mode, plan, price })}
            >
              {label}
            </Button>
          )}
        </div>
      ) : null}
    </li>
  );
}

/**
 * Every plan side by side, by month or by year, with the way to move to each: a checkout, a change (with a seat
 * count for a per-seat plan) or, for the free plan, canceling at the period's end (`onChooseFree`).
 */
export function PlanComparison({
  overview,
  plans,
  canManage,
  onChoose,
  onChooseFree,
}: {
  overview: BillingOverview;
  plans: Plan[];
  canManage: boolean;
  onChoose: (choice: PlanChoice) => void;
  onChooseFree: () => void;
}) {
  const subscription = overview.subscription;
  const [interval, setInterval] = useState<RecurringInterval>(
    subscription?.recurringInterval === "year" ? "year" : "month",
  );
  const current = {
    key: overview.plan.key,
    monthly: subscription
      ? subscription.recurringInterval === "year"
        ? subscription.amount / 12
        : subscription.amount
      : 0,
  };
  return (
    <Card>
      <CardHeader
        title="Plans"
        description={`Prices per ${intervalWord(interval)}, before tax. Upgrades apply at once; you can switch or cancel at any time.`}
        action={<IntervalToggle value={interval} onChange={setInterval} />}
      />
      <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard
            key={plan.key}
            plan={plan}
            current={current}
            interval={interval}
            overview={overview}
            canManage={canManage}
            onChoose={onChoose}
            onChooseFree={onChooseFree}
          />
        ))}
      </ul>
    </Card>
  );
}
