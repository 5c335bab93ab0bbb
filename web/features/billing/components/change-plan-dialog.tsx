import type { RefObject } from "react";
import type { BillingOverview } from "../../../../common/billing.schemas";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { useChangePlan, useChangePreview } from "../api/billing";
import { ChangePreviewSummary } from "./change-preview-summary";
import type { PlanChoice } from "./plan-comparison";

/** "monthly", "yearly": how often a price is billed. */
function periodWord(interval: string): string {
  return interval === "year" ? "yearly" : interval === "month" ? "monthly" : interval;
}

function ChangePlanBody({
  organizationId,
  choice,
  onClose,
}: {
  organizationId: string;
  choice: PlanChoice;
  onClose: () => void;
}) {
  const change = { productId: choice.price.productId, ...(choice.seats ? { seats: choice.seats } : {}) };
  const preview = useChangePreview(organizationId, change);
  const changePlan = useChangePlan(organizationId);
  return (
    <div className="space-y-4">
      <div aria-live="polite" className="min-h-16">
        <ChangePreviewSummary preview={preview} />
      </div>
      <DialogActions onCancel={onClose}>
        <Button
          disabled={!preview.data}
          isLoading={changePlan.isPending}
          onClick={() => changePlan.mutate(change, { onSuccess: onClose })}
        >
          Confirm change
        </Button>
      </DialogActions>
    </div>
  );
}

/** A plan change on an existing subscription: what it costs now and on the next invoice, before it is confirmed. */
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
          key={`${choice.price.productId}:${choice.seats ?? ""}`}
          organizationId={organizationId}
          choice={choice}
          onClose={onClose}
        />
      ) : null}
    </Dialog>
  );
}
