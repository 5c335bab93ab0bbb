import type { Context } from "hono";
import { z } from "zod";
import { ApiError, forbidden, readJson } from "./api-errors";
import { serializeCheckout, serializeCheckoutPublic } from "./checkouts.serializers";
import { completeFirstPayment, confirmCheckout, findCheckout, findCheckoutBySecret } from "./checkouts.service";
import type { SandboxContext } from "./context";
import { processDueWork } from "./controls.service";
import { newRouter } from "./http";
import { saveCard } from "./customers.service";
import type { CheckoutRecord } from "./records";
import { ACTION_REQUIRED_TOKEN, DECLINED_TOKEN, PAYING_TOKEN, requireRecord } from "./shared";
import { serializeSubscription } from "./subscriptions.serializers";
import { findSubscription } from "./subscriptions.service";

/**
 * Sandbox controls: not part of the provider's API. They move the clock (renewals, trial ends,
 * period-end cancellations, dunning, unconfirmed first payments), finish checkouts without a browser,
 * confirm a first payment that needs the customer, set the card a subscription renews with, and start over.
 */
export function controlRoutes(ctx: SandboxContext, reset: () => void) {
  const router = newRouter();

  const clockState = () => ({ now: ctx.clock.iso(), offset_ms: ctx.clock.offsetMs() });

  router.get("/clock", (c) => c.json(clockState()));

  router.post("/clock/advance", async (c) => {
    const input = await readJson(
      c,
      z
        .object({ seconds: z.number().min(0).default(0), days: z.number().min(0).default(0) })
        .refine((value) => value.seconds + value.days > 0, "Give seconds or days"),
    );
    ctx.clock.advance((input.seconds + input.days * 86_400) * 1000);
    processDueWork(ctx);
    return c.json(clockState());
  });

  const checkoutById = (id: string) => findCheckout(ctx, id);
  const finishInput = z.object({ customer_email: z.email().optional(), customer_name: z.string().optional() });
  /**
   * Confirms as the hosted page would, with what its form would have filled in first (the optional e-mail
   * and name); the fill is part of the confirmation, so a refused one keeps none of it.
   */
  const confirmFromPage = async (c: Context, token: string) => {
    const checkout = checkoutById(c.req.param("id") ?? "");
    const input = await readJson(c, finishInput);
    confirmCheckout(ctx, checkout.id, token, (current: CheckoutRecord) => {
      ctx.store.put("checkout", {
        ...current,
        customer_email: input.customer_email ?? current.customer_email,
        customer_name: input.customer_name ?? current.customer_name,
      });
    });
    return checkout.id;
  };

  /** Pays the checkout as the hosted page would with 4242…; the answer is the organization's Checkout. */
  router.post("/checkouts/:id/complete", async (c) => {
    const checkoutId = await confirmFromPage(c, PAYING_TOKEN);
    return c.json(serializeCheckout(ctx, checkoutById(checkoutId)));
  });

  /** Declines the payment as 4000 0000 0000 0002 would; the checkout ends up `failed`. */
  router.post("/checkouts/:id/fail", async (c) => {
    try {
      await confirmFromPage(c, DECLINED_TOKEN);
    } catch (error) {
      if (!(error instanceof ApiError && error.body.error === "PaymentError")) throw error;
    }
    return c.json(serializeCheckout(ctx, checkoutById(c.req.param("id"))));
  });

  /**
   * The customer confirms the first payment of an `incomplete` subscription (card 4000 0025 0000 3155), as 3-D Secure
   * would: the subscription starts, its order is paid, the checkout succeeds and the benefits are granted.
   * The answer is the Subscription; 403 unless it is incomplete.
   */
  router.post("/subscriptions/:id/complete-payment", (c) => {
    const subscription = findSubscription(ctx, c.req.param("id"));
    return c.json(
      serializeSubscription(
        ctx,
        ctx.store.transaction(() => completeFirstPayment(ctx, subscription)),
      ),
    );
  });

  /**
   * The same for the hosted page, which holds only the checkout's client secret (the path is exempt from the
   * organization token, like the client checkout API). The answer is the checkout as the page reads it.
   */
  router.post("/checkouts/client/:secret/complete-payment", (c) => {
    const checkout = findCheckoutBySecret(ctx, c.req.param("secret"));
    if (!checkout.subscription_id)
      throw forbidden("SubscriptionNotIncomplete", "This checkout has no payment awaiting confirmation.");
    const subscription = findSubscription(ctx, checkout.subscription_id);
    ctx.store.transaction(() => completeFirstPayment(ctx, subscription));
    return c.json(serializeCheckoutPublic(ctx, findCheckout(ctx, checkout.id)));
  });

  /**
   * The card later renewals are charged to (`tok_chargeDeclined` makes the next renewal fail); it is saved on the
   * customer as their default payment method, as a card update at the provider is.
   */
  router.post("/subscriptions/:id/card", async (c) => {
    const subscription = findSubscription(ctx, c.req.param("id"));
    const input = await readJson(c, z.object({ token: z.enum([PAYING_TOKEN, DECLINED_TOKEN, ACTION_REQUIRED_TOKEN]) }));
    const updated = ctx.store.transaction(() => {
      saveCard(ctx, requireRecord(ctx.store, "customer", subscription.customer_id), input.token);
      return ctx.store.put("subscription", { ...subscription, card_token: input.token });
    });
    return c.json(serializeSubscription(ctx, updated));
  });

  router.post("/reset", (c) => {
    reset();
    return c.json(clockState());
  });

  return router;
}
