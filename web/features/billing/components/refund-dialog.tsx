import { useState, type RefObject } from "react";
import { z } from "zod";
import {
  REFUND_REASONS,
  refundBodySchema,
  type BillingOrder,
  type BillingRefund,
} from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { SelectField, TextAreaField, TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useRefundOrder } from "../api/admin-billing";
import {
  currencyDigits,
  formatDate,
  formatMoney,
  REFUND_REASON_LABELS,
  refundStatusLabel,
  toMajorUnitsText,
  toMinorUnits,
} from "./billing-format";

/** What is left to refund of an order. */
export function refundableAmount(order: Pick<BillingOrder, "totalAmount" | "refundedAmount">): number {
  return Math.max(0, order.totalAmount - order.refundedAmount);
}

/** The server's refund fields, with the amount typed in major units ("12.50") and capped at what is refundable. */
export function refundFormSchema(currency: string, refundable: number) {
  const example = toMajorUnitsText(1250, currency);
  return z.object({
    amount: z
      .string()
      .transform((text) => toMinorUnits(text, currency))
      .pipe(
        z
          .number({ error: `Enter an amount such as ${example}` })
          .pipe(refundBodySchema.shape.amount.unwrap())
          .refine((amount) => amount <= refundable, `Refund at most ${formatMoney(refundable, currency)}`),
      ),
    reason: z.enum(REFUND_REASONS, { error: "Choose a reason" }),
    comment: refundBodySchema.shape.comment,
  });
}

function RefundForm({
  organizationId,
  order,
  onDone,
  onCancel,
}: {
  organizationId: string;
  order: BillingOrder;
  onDone: (refund: BillingRefund) => void;
  onCancel: () => void;
}) {
  const refund = useRefundOrder(organizationId);
  const refundable = refundableAmount(order);
  const form = useZodForm(refundFormSchema(order.currency, refundable), {
    defaultValues: { amount: toMajorUnitsText(refundable, order.currency), comment: "" },
    serverErrors: {
      VALIDATION_ERROR: {
        field: "amount",
        message: "This amount cannot be refunded. Reload the page to see what is still refundable.",
      },
    },
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async ({ amount, reason, comment }) => {
    onDone(await refund.mutateAsync({ orderId: order.id, amount, reason, comment }));
  });
  const digits = currencyDigits(order.currency);

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextField
        label={`Amount (${order.currency.toUpperCase()})`}
        inputMode="decimal"
        autoComplete="off"
        description={`Up to ${formatMoney(refundable, order.currency)}${digits > 0 ? `, with up to ${digits} decimals` : ""}.`}
        {...form.field("amount")}
      />
      <SelectField label="Reason" {...form.field("reason")}>
        <option value="">Choose a reason…</option>
        {REFUND_REASONS.map((reason) => (
          <option key={reason} value={reason}>
            {REFUND_REASON_LABELS[reason]}
          </option>
        ))}
      </SelectField>
      <TextAreaField
        label="Why"
        rows={3}
        monospace={false}
        description="Kept in the audit log and with the refund; the customer does not see it."
        {...form.field("comment")}
      />
      <DialogActions onCancel={onCancel}>
        <Button type="submit" variant="danger" isLoading={isSubmitting}>
          {isSubmitting ? "Refunding…" : "Refund"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Refunds (part of) one order: the amount starts at everything still refundable; the result is shown once done. */
export function RefundDialog({
  organizationId,
  order,
  onClose,
  fallbackFocus,
}: {
  organizationId: string;
  order: BillingOrder | null;
  onClose: () => void;
  /** Where focus goes on close when the payment's Refund button is gone (nothing left to refund). */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const [result, setResult] = useState<BillingRefund | null>(null);
  const close = () => {
    setResult(null);
    onClose();
  };
  return (
    <Dialog
      open={order !== null}
      onOpenChange={(open) => !open && close()}
      title="Refund payment"
      fallbackFocus={fallbackFocus}
      description={
        order
          ? `${formatMoney(order.totalAmount, order.currency)} paid on ${formatDate(order.createdAt)}${order.productName ? ` for ${order.productName}` : ""}.${
              order.refundedAmount > 0
                ? ` ${formatMoney(order.refundedAmount, order.currency)} of it is already refunded.`
                : ""
            }`
          : undefined
      }
    >
      {result ? (
        <div className="space-y-4">
          <Alert tone="success" title={`${formatMoney(result.amount, result.currency)} refunded`}>
            Status: {refundStatusLabel(result.status)}. The payment provider returns the money to the card it was paid
            with; that can take a few days.
          </Alert>
          <div className="flex justify-end">
            <Button onClick={close}>Close</Button>
          </div>
        </div>
      ) : order ? (
        <RefundForm key={order.id} organizationId={organizationId} order={order} onDone={setResult} onCancel={close} />
      ) : null}
    </Dialog>
  );
}
