import type { RefObject } from "react";
import type { BillingOverview } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { useChangePlan, useChangePreview } from "../api/billing";
import { formatMoney, intervalWord, prorationSentence } from "./billing-format";
import type { PlanChoice } from "./plan-comparison";

/** "monthly", "yearly": how often a price is billed. */
function periodWord(interval: string): string {
  return interval === "year" ? "yearly" : interval === "month" ? "monthly" : interval;
}

function ChangePlanBody({
  organizationId,
  overview,
  choice,
  onClose,
}: {
  organizationId: string;
  overview: BillingOverview;
  choice: PlanChoice;
  onClose: () => void;
}) {
  const preview = useChangePreview(organizationId, choice.price.productId);
  const changePlan = useChangePlan(organizationId);
  const seats = overview.subscription?.seats ?? overview.seats.used;
  const perPeriod = preview.data
    ? `${formatMoney(preview.data.newAmount, preview.data.currency)} / ${intervalWord(choice.price.interval)}${choice.price.perSeat ? ` for ${seats} seat${seats === 1 ? "" : "s"}` : ""}`
    : null;

  return (
    <div className="space-y-4">
      <div aria-live="polite" className="min-h-16">
        {preview.isPending ? (
          // The shape of the price below, so the dialog does not grow once it is known.
          <div className="space-y-2 rounded-lg bg-zinc-50 px-4 py-3 text-sm dark:bg-zinc-800/60">
            <p className="text-base">
              <Spinner label="Working out the price…" />
            </p>
            <Skeleton className="h-5 w-48 max-w-full" />
          </div>
        ) : null}
        {preview.isError ? (
          <div className="space-y-3">
            <Alert tone="error" title="We could not work out the price">
              {errorMessage(preview.error)}
            </Alert>
            <Button variant="secondary" size="sm" onClick={() => preview.refetch()} isLoading={preview.isFetching}>
              Try again
            </Button>
          </div>
        ) : null}
        {preview.data ? (
          <div className="space-y-2 rounded-lg bg-zinc-50 px-4 py-3 text-sm dark:bg-zinc-800/60">
            <p className="text-base font-semibold">{prorationSentence(preview.data)}</p>
            <p className="text-zinc-600 dark:text-zinc-300">
              After that, {choice.plan.name} is {perPeriod}.
            </p>
          </div>
        ) : null}
      </div>
      <DialogActions onCancel={onClose}>
        <Button
          disabled={!preview.data}
          isLoading={changePlan.isPending}
          onClick={() => changePlan.mutate({ productId: choice.price.productId }, { onSuccess: onClose })}
        >
          Confirm change
        </Button>
      </DialogActions>
    </div>
  );
}

/** A plan change on an existing subscription: what it costs now (the proration) before it is confirmed. */
export function ChangePlanDialog({
  organizationId,
  overview,
  choice,
  onClose,
  fallbackFocus,
}: {
  organizationId: string;
  overview: BillingOverview;
  choice: PlanChoice | null;
  onClose: () => void;
  /** Where focus goes once the change is made (the button that opened the dialog is gone with the old plan). */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const target = choice ? `${choice.plan.name} (${periodWord(choice.price.interval)})` : "";
  const interval = overview.subscription?.recurringInterval;
  const from = interval ? `${overview.plan.name} (${periodWord(interval)})` : overview.plan.name;
  return (
    <Dialog
      open={choice !== null}
      onOpenChange={(open) => !open && onClose()}
      title={choice ? `Switch to ${target}` : "Switch plan"}
      description={choice ? `From ${from} to ${target}. The change applies as soon as you confirm.` : undefined}
      fallbackFocus={fallbackFocus}
    >
      {choice ? (
        <ChangePlanBody
          key={choice.price.productId}
          organizationId={organizationId}
          overview={overview}
          choice={choice}
          onClose={onClose}
        />
      ) : null}
    </Dialog>
  );
}
