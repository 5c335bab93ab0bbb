import { useEffect, useState } from "react";
import type { BillingOverview, PlanPrice } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { errorMessage } from "../../../lib/api-error";
import { useZodForm } from "../../../lib/form";
import { useChangePreview, useChangeSeats } from "../api/billing";
import { formatCount, formatSeatTotal } from "./billing-format";
import { ChangePreviewSummary } from "./change-preview-summary";
import { seatFormSchema } from "./seat-schema";

/** A seat change's confirmation: its preview, then the change on "Confirm"; a refusal is shown in the dialog. */
function ConfirmSeats({
  organizationId,
  seats,
  onDone,
  onClose,
}: {
  organizationId: string;
  seats: number;
  onDone: () => void;
  onClose: () => void;
}) {
  const preview = useChangePreview(organizationId, { seats });
  const changeSeats = useChangeSeats(organizationId);
  return (
    <div className="space-y-4">
      {changeSeats.isError ? <Alert tone="error">{errorMessage(changeSeats.error)}</Alert> : null}
      <div aria-live="polite" className="min-h-16">
        <ChangePreviewSummary preview={preview} />
      </div>
      <DialogActions onCancel={onClose}>
        <Button
          disabled={!preview.data}
          isLoading={changeSeats.isPending}
          onClick={() => changeSeats.mutate({ seats }, { onSuccess: onDone })}
        >
          Confirm seats
        </Button>
      </DialogActions>
    </div>
  );
}

/** The seat count of a per-seat subscription: how many are paid for, how many are used, and a way to change it. */
export function SeatsCard({
  organizationId,
  overview,
  price,
}: {
  organizationId: string;
  overview: BillingOverview;
  price: PlanPrice | undefined;
}) {
  const paid = overview.subscription?.seats ?? 0;
  const inUse = overview.seats.used;
  const [confirming, setConfirming] = useState<number | null>(null);
  const form = useZodForm(
    seatFormSchema({ minSeats: price?.minSeats ?? null, maxSeats: price?.maxSeats ?? null, inUse }),
    {
      defaultValues: { seats: paid },
    },
  );
  const seats = form.watch("seats");
  const onSubmit = form.submit(({ seats: next }) => setConfirming(next));

  // A seat count changed elsewhere (the provider's portal, another admin) becomes the field's value, unless the
  // person is typing one. The form stays mounted, so focus stays where it was after an update.
  const { reset, formState } = form;
  const isDirty = formState.isDirty;
  useEffect(() => {
    if (!isDirty) reset({ seats: paid });
  }, [paid, isDirty, reset]);

  return (
    <Card>
      <CardHeader
        title="Seats"
        description={`You pay for ${formatCount(paid)} seat${paid === 1 ? "" : "s"}; ${formatCount(inUse)} ${inUse === 1 ? "is" : "are"} used by members and pending invitations.`}
      />
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-3">
        {form.formError ? (
          <div className="w-full">
            <Alert tone="error">{form.formError}</Alert>
          </div>
        ) : null}
        <TextField
          label="Number of seats"
          type="number"
          inputMode="numeric"
          min={Math.max(inUse, price?.minSeats ?? 1)}
          max={price?.maxSeats ?? undefined}
          step={1}
          className="w-44"
          description={price && Number.isInteger(seats) && seats > 0 ? formatSeatTotal(price, seats) : undefined}
          {...form.field("seats", { valueAsNumber: true })}
        />
        <Button type="submit" variant="secondary" className="sm:mt-6.5" disabled={seats === paid} focusableWhenDisabled>
          Update seats
        </Button>
      </form>
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={
          confirming === null
            ? "Change seats"
            : `Change to ${formatCount(confirming)} seat${confirming === 1 ? "" : "s"}`
        }
        description={`From ${formatCount(paid)} seat${paid === 1 ? "" : "s"}. It applies as soon as you confirm.`}
      >
        {confirming !== null ? (
          <ConfirmSeats
            key={confirming}
            organizationId={organizationId}
            seats={confirming}
            onClose={() => setConfirming(null)}
            onDone={() => {
              form.reset({ seats: confirming });
              setConfirming(null);
            }}
          />
        ) : null}
      </Dialog>
      <p className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">
        Added seats are charged for the rest of this period; removed seats are credited on your next invoice.
      </p>
    </Card>
  );
}
