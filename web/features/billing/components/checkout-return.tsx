import { useEffect, useRef, useState } from "react";
import type { CheckoutProgress } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { isCheckoutSettled, useCheckoutProgress, useFinishCheckout } from "../api/billing";
import { CHECKOUT_MESSAGES, checkoutReturn, type CheckoutReturn } from "./billing-format";

/** How long the page asks about a checkout before it says the confirmation is slow and offers to check again. */
export const CHECKOUT_TIMEOUT_MS = 60_000;

/** What a checkout that ended without a payment comes to. */
type Unpaid = Exclude<CheckoutReturn["kind"], "follow">;

const UNPAID_OUTCOMES: Record<Unpaid, { tone: "error" | "info"; title: string; message: string }> = {
  declined: { tone: "error", title: "Payment declined", message: CHECKOUT_MESSAGES.declined },
  expired: { tone: "info", title: "Checkout expired", message: CHECKOUT_MESSAGES.expired },
  "not-completed": { tone: "info", title: "No change to your plan", message: CHECKOUT_MESSAGES.notCompleted },
};

/** A checkout that ended without a payment: what happened, and a way to put the notice away. */
function UnpaidOutcome({ kind, onDismiss }: { kind: Unpaid; onDismiss: () => void }) {
  const { tone, title, message } = UNPAID_OUTCOMES[kind];
  return (
    <Alert tone={tone} title={title}>
      <p>{message}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onDismiss}>
        Dismiss
      </Button>
    </Alert>
  );
}

/**
 * Follows a checkout the buyer came back from until the provider's confirmation reaches Atrium: every second for up
 * to a minute, then a way to check again. A declined, expired or unpaid (open) checkout is said at once. Once it is
 * completed the overview is read again, a toast names the new plan and `onDone` runs (the page drops `?checkout=`).
 */
function CheckoutConfirmation({
  organizationId,
  checkoutId,
  onDone,
}: {
  organizationId: string;
  checkoutId: string;
  onDone: () => void;
}) {
  const [round, setRound] = useState(0);
  const [isSlow, setSlow] = useState(false);
  const progress = useCheckoutProgress(organizationId, checkoutId, { enabled: !isSlow });
  const finish = useFinishCheckout(organizationId);
  const finished = useRef(false);
  const state = progress.data?.state;
  const isSettled = isCheckoutSettled(state);

  useEffect(() => {
    if (isSlow || isSettled) return;
    const timer = setTimeout(() => setSlow(true), CHECKOUT_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [isSlow, isSettled, round]);

  useEffect(() => {
    if (state !== "completed" || finished.current) return;
    finished.current = true;
    finish.mutate(undefined, { onSettled: onDone });
  }, [state, finish, onDone]);

  if (state === "declined" || state === "expired") return <UnpaidOutcome kind={state} onDismiss={onDone} />;
  if (state === "open") return <UnpaidOutcome kind="not-completed" onDismiss={onDone} />;
  if (progress.isError && !progress.isFetching) {
    return (
      <Alert tone="error" title="We could not check your payment">
        <p>{errorMessage(progress.error)}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => progress.refetch()}>
            Try again
          </Button>
          <Button variant="ghost" size="sm" onClick={onDone}>
            Dismiss
          </Button>
        </div>
      </Alert>
    );
  }
  if (isSlow) {
    return (
      <Alert tone="info" title="Still confirming your payment">
        <p>{CHECKOUT_MESSAGES.slow}</p>
        <Button
          variant="secondary"
          size="sm"
          className="mt-3"
          onClick={() => {
            setSlow(false);
            setRound((value) => value + 1);
          }}
        >
          Check again
        </Button>
      </Alert>
    );
  }
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex items-start gap-3 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950/60 dark:text-sky-100"
    >
      <Spinner className="mt-0.5" />
      <div>
        <p className="font-semibold">{CHECKOUT_MESSAGES.confirming}</p>
        <p className="mt-1">This usually takes a few seconds. You can stay on this page; it updates by itself.</p>
      </div>
    </div>
  );
}

/**
 * What the billing page says when the buyer comes back from the hosted checkout: `checkout` is the id of a paid
 * checkout to follow, or `returned` when they left without paying (then the organization's last checkout says why).
 */
export function CheckoutReturnNotice({
  organizationId,
  checkout,
  lastCheckout,
  onDone,
}: {
  organizationId: string;
  checkout: string;
  lastCheckout: CheckoutProgress | null;
  onDone: () => void;
}) {
  const outcome = checkoutReturn(checkout, lastCheckout);
  if (outcome.kind !== "follow") return <UnpaidOutcome kind={outcome.kind} onDismiss={onDone} />;
  return (
    <CheckoutConfirmation
      key={outcome.checkoutId}
      organizationId={organizationId}
      checkoutId={outcome.checkoutId}
      onDone={onDone}
    />
  );
}
