import { expireFirstPayment, expireIfDue, firstPaymentsDue } from "./checkouts.service";
import type { SandboxContext } from "./context";
import { DUNNING_PERIOD_MS, endAtPeriodEnd, renewSubscription, settlePastDue } from "./subscriptions.service";

/** What the sandbox clock drives: checkout expiry, unconfirmed first payments, renewals, period-end cancellations and dunning. */

/** Applies everything that became due at the current sandbox time, oldest first, until nothing is left. */
export function processDueWork(ctx: SandboxContext): void {
  ctx.store.transaction(() => {
    const now = () => ctx.clock.iso();
    for (const checkout of ctx.store.list("checkout", (candidate) => candidate.status === "open"))
      expireIfDue(ctx, checkout);
    // An incomplete subscription never renews, so expiring it first cannot reorder anything below.
    for (const subscription of firstPaymentsDue(ctx)) expireFirstPayment(ctx, subscription);
    for (;;) {
      const due = ctx.store
        .list(
          "subscription",
          (candidate) =>
            (candidate.status === "active" || candidate.status === "trialing") && candidate.current_period_end <= now(),
        )
        .sort((a, b) => a.current_period_end.localeCompare(b.current_period_end))[0];
      const overdue = ctx.store.list(
        "subscription",
        (candidate) =>
          candidate.status === "past_due" &&
          candidate.past_due_at !== null &&
          new Date(candidate.past_due_at).getTime() + DUNNING_PERIOD_MS <= ctx.clock.now().getTime(),
      )[0];
      if (overdue) settlePastDue(ctx, overdue);
      else if (due?.cancel_at_period_end) endAtPeriodEnd(ctx, due);
      else if (due) renewSubscription(ctx, due);
      else break;
    }
  });
}
