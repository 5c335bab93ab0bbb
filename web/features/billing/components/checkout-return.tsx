import { useEffect, useRef, useState, type ReactNode } from "react";
import type { CheckoutProgress } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { useCheckoutProgress, useFinishCheckout } from "../api/billing";
import { CHECKOUT_MESSAGES, checkoutReturn } from "./billing-format";

/** How long the page asks about a checkout before it says the confirmation is slow and offers to check again. */
export const CHECKOUT_TIMEOUT_MS = 60_000;

function Outcome({
  tone,
  title,
  children,
  onDismiss,
}: {
  tone: "error" | "info";
  title: string;
  children: ReactNode;
  onDismiss: () => void;
}) {
  return (
    <Alert tone={tone} title={title}>
      <p>{children}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onDismiss}>
        Dismiss
      </Button>
    </Alert>
  );
}

/**
 * Follows a paid checkout until the provider's confirmation reaches Atrium: every second for up to a minute, then
 * a way to check again. Once completed the overview is read again, a toast names the new plan and `onDone` runs
 * (the page drops `?checkout=` from the address).
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
  const isSettled = state === "completed" || state === "declined" || state === "expired";

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

  if (state === "declined") {
    return (
      <Outcome tone="error" title="Payment declined" onDismiss={onDone}>
        {CHECKOUT_MESSAGES.declined}
      </Outcome>
    );
  }
  if (state === "expired") {
    return (
      <Outcome tone="info" title="Checkout expired" onDismiss={onDone}>
        {CHECKOUT_MESSAGES.expired}
      </Outcome>
    );
  }
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
  switch (outcome.kind) {
    case "follow":
      return (
        <CheckoutConfirmation
          key={outcome.checkoutId}
          organizationId={organizationId}
          checkoutId={outcome.checkoutId}
          onDone={onDone}
        />
      );
    case "declined":
      return (
        <Outcome tone="error" title="Payment declined" onDismiss={onDone}>
          {CHECKOUT_MESSAGES.declined}
        </Outcome>
      );
    case "expired":
      return (
        <Outcome tone="info" title="Checkout expired" onDismiss={onDone}>
          {CHECKOUT_MESSAGES.expired}
        </Outcome>
      );
    case "not-completed":
      return (
        <Outcome tone="info" title="No change to your plan" onDismiss={onDone}>
          {CHECKOUT_MESSAGES.notCompleted}
        </Outcome>
      );
  }
}
