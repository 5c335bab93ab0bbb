import type { RefObject } from "react";
import { z } from "zod";
import {
  CANCELLATION_REASONS,
  FREE_PLAN_LIMITS,
  subscriptionChangeBodySchema,
  type BillingOverview,
  type Plan,
} from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { SelectField, TextAreaField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useCancelSubscription } from "../api/billing";
import { CANCELLATION_REASON_LABELS, formatDate } from "./billing-format";

/** The server's cancellation fields, with the reason required here (the spec asks every canceler for one). */
const cancelSchema = z.object({
  cancellationReason: z.enum(CANCELLATION_REASONS, { error: "Choose a reason" }),
  cancellationComment: subscriptionChangeBodySchema.shape.cancellationComment,
});

function CancelForm({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const cancel = useCancelSubscription(organizationId);
  const form = useZodForm(cancelSchema, { defaultValues: { cancellationComment: "" } });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async ({ cancellationReason, cancellationComment }) => {
    await cancel.mutateAsync({
      cancelAtPeriodEnd: true,
      cancellationReason,
      ...(cancellationComment ? { cancellationComment } : {}),
    });
    onClose();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <SelectField label="Why are you canceling?" {...form.field("cancellationReason")}>
        <option value="">Choose a reason…</option>
        {CANCELLATION_REASONS.map((reason) => (
          <option key={reason} value={reason}>
            {CANCELLATION_REASON_LABELS[reason]}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label="Anything else we should know? (optional)"
        rows={3}
        monospace={false}
        description="Up to 500 characters."
        {...form.field("cancellationComment")}
      />
      <DialogActions onCancel={onClose} cancelLabel="Keep my plan">
        <Button type="submit" variant="danger" isLoading={isSubmitting}>
          {isSubmitting ? "Canceling…" : "Cancel subscription"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Cancels at the end of the period: the plan stays until then, and the reason is asked for. */
export function CancelSubscriptionDialog({
  organizationId,
  overview,
  freePlan,
  open,
  onClose,
  fallbackFocus,
}: {
  organizationId: string;
  overview: BillingOverview;
  /** The catalogue's free plan, for its limits (the contract's defaults until the catalogue has loaded). */
  freePlan: Plan | undefined;
  open: boolean;
  onClose: () => void;
  /** Where focus goes on close if the button that opened the dialog is gone. */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const end = overview.subscription?.currentPeriodEnd;
  const limits = freePlan?.limits ?? FREE_PLAN_LIMITS;
  const members = limits.members === null ? "unlimited members" : `up to ${limits.members} members`;
  const teams = limits.teams === null ? "unlimited teams" : `${limits.teams} teams`;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={`Cancel ${overview.plan.name}?`}
      fallbackFocus={fallbackFocus}
      description={`${overview.plan.name} stays active${end ? ` until ${formatDate(end)}` : " until the end of the period"}, and you can resume until then. Nothing more is charged. Afterwards the organization moves to ${freePlan?.name ?? "Free"}: ${members} and ${teams}.`}
    >
      {open ? <CancelForm organizationId={organizationId} onClose={onClose} /> : null}
    </Dialog>
  );
}
