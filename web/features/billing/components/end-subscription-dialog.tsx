import type { RefObject } from "react";
import {
  operatorCancellationBodySchema,
  type BillingSubscription,
  type OperatorCancellationTiming,
} from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { ChoiceField, type Choice } from "../../../components/ui/choice-field";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextAreaField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useEndSubscription } from "../api/admin-billing";
import { formatDate } from "./billing-format";

function timingChoices(subscription: BillingSubscription): ReadonlyArray<Choice<OperatorCancellationTiming>> {
  return [
    {
      value: "period_end",
      label: "At the end of the period",
      description: `It stops renewing; the plan stays until ${formatDate(subscription.currentPeriodEnd)}.`,
    },
    {
      value: "now",
      label: "Now",
      description: "The plan ends at once and nothing more is charged. Refund the last payment separately.",
    },
  ];
}

function EndSubscriptionForm({
  organizationId,
  subscription,
  onClose,
}: {
  organizationId: string;
  subscription: BillingSubscription;
  onClose: () => void;
}) {
  const end = useEndSubscription(organizationId);
  const form = useZodForm(operatorCancellationBodySchema, {
    // A subscription already ending with its period can only be ended now.
    defaultValues: { when: subscription.cancelAtPeriodEnd ? "now" : "period_end", reason: "" },
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async (values) => {
    await end.mutateAsync(values);
    onClose();
  });
  const choices = timingChoices(subscription).filter(
    (choice) => !(subscription.cancelAtPeriodEnd && choice.value === "period_end"),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <ChoiceField legend="When" choices={choices} {...form.field("when")} />
      <TextAreaField
        label="Reason"
        rows={3}
        monospace={false}
        autoFocus
        description="Kept in the audit log with the change."
        {...form.field("reason")}
      />
      <DialogActions onCancel={onClose}>
        <Button type="submit" variant="danger" isLoading={isSubmitting}>
          {isSubmitting ? "Canceling…" : "Cancel subscription"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** A platform admin ends an organization's subscription, when nobody in the organization can. */
export function EndSubscriptionDialog({
  organizationId,
  subscription,
  open,
  onOpenChange,
  fallbackFocus,
}: {
  organizationId: string;
  subscription: BillingSubscription;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel this organization's subscription?"
      description="The organization goes back to the Free plan when the subscription ends."
      fallbackFocus={fallbackFocus}
    >
      {open ? (
        <EndSubscriptionForm
          organizationId={organizationId}
          subscription={subscription}
          onClose={() => onOpenChange(false)}
        />
      ) : null}
    </Dialog>
  );
}
