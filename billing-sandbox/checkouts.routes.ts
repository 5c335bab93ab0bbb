import type { z } from "zod";
import { readJson } from "./api-errors";
import { serializeCheckout, serializeCheckoutPublic } from "./checkouts.serializers";
import {
  confirmCheckout,
  createCheckout,
  expireIfDue,
  findCheckout,
  findCheckoutBySecret,
  updateCheckout,
} from "./checkouts.service";
import type { SandboxContext } from "./context";
import { newRouter, paginate, queryList } from "./http";
import {
  checkoutClientUpdateSchema,
  checkoutConfirmSchema,
  checkoutCreateSchema,
  checkoutUpdateSchema,
} from "./schemas";

/**
 * Checkout sessions: the organization's API (`/v1/checkouts/`) and the client API the hosted page
 * uses (`/v1/checkouts/client/{client_secret}`), which needs no token: the secret is the credential.
 */

/** Confirm may carry last-minute field changes (CheckoutConfirmStripe extends CheckoutUpdatePublic). */
const hasChanges = (input: z.infer<typeof checkoutClientUpdateSchema>) =>
  Object.values(input).some((value) => value !== undefined);

export function checkoutRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/", (c) => {
    const productIds = queryList(c, "product_id");
    const customerIds = queryList(c, "customer_id");
    const externalIds = queryList(c, "external_customer_id");
    const statuses = queryList(c, "status");
    const checkouts = ctx.store.list(
      "checkout",
      (checkout) =>
        (!productIds || productIds.includes(checkout.product_id)) &&
        (!customerIds || (checkout.customer_id !== null && customerIds.includes(checkout.customer_id))) &&
        (!externalIds ||
          (checkout.external_customer_id !== null && externalIds.includes(checkout.external_customer_id))) &&
        (!statuses || statuses.includes(checkout.status)),
    );
    return c.json(paginate(c, checkouts, (checkout) => serializeCheckout(ctx, checkout)));
  });

  router.post("/", async (c) => {
    const input = await readJson(c, checkoutCreateSchema);
    return c.json(
      serializeCheckout(
        ctx,
        ctx.store.transaction(() => createCheckout(ctx, input)),
      ),
      201,
    );
  });

  router.get("/:id", (c) => c.json(serializeCheckout(ctx, findCheckout(ctx, c.req.param("id")))));

  router.patch("/:id", async (c) => {
    const checkout = findCheckout(ctx, c.req.param("id"));
    const input = await readJson(c, checkoutUpdateSchema);
    return c.json(
      serializeCheckout(
        ctx,
        ctx.store.transaction(() => updateCheckout(ctx, checkout, input)),
      ),
    );
  });

  return router;
}

export function checkoutClientRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/:secret", (c) =>
    c.json(serializeCheckoutPublic(ctx, expireIfDue(ctx, findCheckoutBySecret(ctx, c.req.param("secret"))))),
  );

  router.patch("/:secret", async (c) => {
    const checkout = findCheckoutBySecret(ctx, c.req.param("secret"));
    const input = await readJson(c, checkoutClientUpdateSchema);
    return c.json(
      serializeCheckoutPublic(
        ctx,
        ctx.store.transaction(() => updateCheckout(ctx, checkout, input)),
      ),
    );
  });

  router.post("/:secret/confirm", async (c) => {
    const checkout = findCheckoutBySecret(ctx, c.req.param("secret"));
    const { confirmation_token_id: token, ...changes } = await readJson(c, checkoutConfirmSchema);
    return c.json(
      confirmCheckout(
        ctx,
        checkout.id,
        token,
        hasChanges(changes) ? (current) => updateCheckout(ctx, current, changes) : undefined,
      ),
    );
  });

  return router;
}
