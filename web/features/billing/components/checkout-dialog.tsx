import { checkoutBodySchema } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useStartCheckout } from "../api/billing";
import { isDiscountCodeRefusal } from "../api/billing-errors";
import { formatPrice, formatSeatTotal } from "./billing-format";
import type { PlanChoice } from "./plan-comparison";

function CheckoutForm({
  organizationId,
  choice,
  onCancel,
}: {
  organizationId: string;
  choice: PlanChoice;
  onCancel: () => void;
}) {
  const startCheckout = useStartCheckout(organizationId);
  const form = useZodForm(checkoutBodySchema, {
    defaultValues: { productId: choice.price.productId, discountCode: "", seats: choice.seats },
  });
  const isRedirecting = form.formState.isSubmitting || startCheckout.isSuccess;
  const onSubmit = form.submit(async ({ productId, discountCode, seats }) => {
    try {
      const body = { productId, ...(discountCode ? { discountCode } : {}), ...(seats === undefined ? {} : { seats }) };
      await startCheckout.mutateAsync(body);
    } catch (error) {
      // An unknown discount code is shown on its field; every other refusal above the form.
      if (!isDiscountCodeRefusal(error)) throw error;
      form.setServerError(error, "discountCode");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <dl className="rounded-lg bg-zinc-50 px-4 py-3 text-sm dark:bg-zinc-800/60">
        <div className="flex justify-between gap-4">
          <dt className="text-zinc-600 dark:text-zinc-300">{choice.plan.name}</dt>
          <dd className="font-medium">{formatPrice(choice.price)}</dd>
        </div>
        {choice.seats !== undefined ? (
          <div className="mt-1 flex justify-between gap-4">
            <dt className="text-zinc-600 dark:text-zinc-300">
              {choice.seats} seat{choice.seats === 1 ? "" : "s"}
            </dt>
            <dd className="font-medium">{formatSeatTotal(choice.price, choice.seats)}</dd>
          </div>
        ) : null}
      </dl>
      <TextField
        label="Discount code (optional)"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        description="Applied before you pay. Taxes, if any, are added on the next page."
        {...form.field("discountCode")}
      />
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        You will enter your card on the payment provider's secure page, then come back here. Nothing is charged until
        you confirm there.
      </p>
      <DialogActions onCancel={onCancel} isCancelDisabled={isRedirecting}>
        <Button type="submit" isLoading={isRedirecting}>
          {isRedirecting ? "Opening checkout…" : "Continue to payment"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Before the hosted checkout: the plan, its seats and price, and a discount code. */
export function CheckoutDialog({
  organizationId,
  choice,
  onClose,
}: {
  organizationId: string;
  choice: PlanChoice | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={choice !== null}
      onOpenChange={(open) => !open && onClose()}
      title={choice ? `Subscribe to ${choice.plan.name}` : "Subscribe"}
      description="Check the plan, add a discount code if you have one, then pay on the next page."
    >
      {choice ? (
        <CheckoutForm
          key={`${choice.price.productId}:${choice.seats ?? ""}`}
          organizationId={organizationId}
          choice={choice}
          onCancel={onClose}
        />
      ) : null}
    </Dialog>
  );
}
