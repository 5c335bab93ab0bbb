import { createHash, timingSafeEqual } from "node:crypto";
import type { Hono, MiddlewareHandler } from "hono";
import { createErrorHandler, notFound, unauthorized, type SandboxLogger } from "./api-errors";
import { benefitRoutes } from "./benefits.routes";
import { checkoutClientRoutes, checkoutRoutes } from "./checkouts.routes";
import { createClock } from "./clock";
import type { SandboxContext } from "./context";
import { controlRoutes } from "./controls.routes";
import { processDueWork } from "./controls.service";
import { customerPortalRoutes } from "./customer-portal.routes";
import { customerRoutes, customerSessionRoutes } from "./customers.routes";
import { discountRoutes } from "./discounts.routes";
import { newRouter, type SandboxEnv } from "./http";
import { customerMeterRoutes, eventRoutes, meterRoutes } from "./meters.routes";
import { orderRoutes, refundRoutes } from "./orders.routes";
import { organizationRoutes } from "./organizations.routes";
import { loadOrganization, resetOrganization, saveOrganization } from "./organizations.service";
import { pageRoutes } from "./pages";
import { customFieldRoutes, productRoutes } from "./products.routes";
import * as requestSchemas from "./schemas";
import { seedCatalogue } from "./seed";
import { openStore } from "./store";
import { subscriptionRoutes } from "./subscriptions.routes";
import { createWebhookDispatcher } from "./webhook-dispatcher";
import { webhookRoutes } from "./webhooks.routes";
import { createWebhookEndpoint } from "./webhooks.service";

export type BillingSandboxOptions = {
  /** SQLite file of the sandbox's own state, or ":memory:" in tests. */
  dataFile: string;
  /** Absolute URL the sandbox app is reachable at, e.g. `http://localhost:3000/sandbox/polar`. */
  publicUrl: string;
  /** When set, organization API calls must send exactly this bearer token; otherwise any token is accepted. */
  accessToken?: string;
  /** An endpoint subscribed to every event, kept in sync with configuration on each start. */
  webhookEndpoint?: { url: string; secret: string };
  /** First webhook retry delay in ms (doubles per attempt). Default 2 s. */
  webhookRetryBaseMs?: number;
  /** Receives failed webhook deliveries (warn) and unhandled errors (error). */
  logger?: SandboxLogger;
};

export type BillingSandbox = {
  /**
   * Routes relative to the sandbox root. Serve it directly, or mount it with
   * `app.mount("/sandbox/polar", sandbox.app.fetch)`: `app.route` would copy the routes into a strict
   * parent router, and the SDK's trailing-slash paths (`/v1/products/`) would stop matching.
   */
  app: Hono<SandboxEnv>;
  context: SandboxContext;
  /** The zod schemas of its request bodies and queries, for tests that fuzz the mounted API with their field names. */
  requestSchemas: Record<string, unknown>;
  close(): Promise<void>;
};

const CONFIGURED_ENDPOINT_KEY = "configured_webhook_endpoint_id";

/** Compares in constant time, so response timing does not reveal how much of a guessed token was right. */
function isSameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The offline stand-in for the billing provider's API, hosted checkout, webhooks and clock. */
export function createBillingSandbox(options: BillingSandboxOptions): BillingSandbox {
  const store = openStore(options.dataFile);
  const clock = createClock(store);
  const webhooks = createWebhookDispatcher({
    store,
    clock,
    retryBaseMs: options.webhookRetryBaseMs ?? 2000,
    logger: options.logger,
  });
  const ctx: SandboxContext = {
    store,
    clock,
    webhooks,
    organization: loadOrganization(store, clock.iso()),
    publicUrl: options.publicUrl.replace(/\/+$/, ""),
    accessToken: options.accessToken,
  };

  const initialize = () => {
    saveOrganization(ctx, ctx.organization);
    seedCatalogue(ctx);
    if (options.webhookEndpoint) syncConfiguredEndpoint(ctx, options.webhookEndpoint);
    processDueWork(ctx);
  };
  initialize();

  const app = newRouter();
  app.onError(createErrorHandler(options.logger));
  app.notFound(() => {
    throw notFound();
  });

  // The organization token guards the API and the controls; the client checkout API (and the hosted page's
  // control that confirms a payment) is authorized by its client secret and the portal by a customer-session token.
  const requireOrganizationToken: MiddlewareHandler = async (c, next) => {
    if (!/\/(v1|sandbox)\/checkouts\/client\/|\/v1\/customer-portal\//.test(c.req.path)) {
      const token = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
      if (!token || (ctx.accessToken !== undefined && !isSameSecret(token, ctx.accessToken))) throw unauthorized();
    }
    await next();
  };
  app.use("/v1/*", requireOrganizationToken);
  app.use("/sandbox/*", requireOrganizationToken);

  app.route("/v1/products", productRoutes(ctx));
  app.route("/v1/custom-fields", customFieldRoutes(ctx));
  app.route("/v1/benefits", benefitRoutes(ctx));
  app.route("/v1/discounts", discountRoutes(ctx));
  app.route("/v1/organizations", organizationRoutes(ctx));
  app.route("/v1/customers", customerRoutes(ctx));
  app.route("/v1/customer-sessions", customerSessionRoutes(ctx));
  app.route("/v1/customer-portal", customerPortalRoutes(ctx));
  app.route("/v1/checkouts/client", checkoutClientRoutes(ctx));
  app.route("/v1/checkouts", checkoutRoutes(ctx));
  app.route("/v1/subscriptions", subscriptionRoutes(ctx));
  app.route("/v1/orders", orderRoutes(ctx));
  app.route("/v1/refunds", refundRoutes(ctx));
  app.route("/v1/meters", meterRoutes(ctx));
  app.route("/v1/events", eventRoutes(ctx));
  app.route("/v1/customer-meters", customerMeterRoutes(ctx));
  app.route("/v1/webhooks", webhookRoutes(ctx));
  app.route(
    "/sandbox",
    controlRoutes(ctx, () => {
      store.reset();
      // The organization keeps its id, so ids the app stored about the merchant stay valid.
      ctx.organization = resetOrganization(ctx.organization);
      initialize();
    }),
  );
  app.route("/", pageRoutes(ctx));

  return {
    app,
    context: ctx,
    requestSchemas: { ...requestSchemas },
    async close() {
      await webhooks.close();
      store.close();
    },
  };
}

/** The configured endpoint (app URL + secret from the environment) is created once and updated on later starts. */
function syncConfiguredEndpoint(ctx: SandboxContext, endpoint: { url: string; secret: string }): void {
  const id = ctx.store.getSetting(CONFIGURED_ENDPOINT_KEY);
  const existing = id ? ctx.store.get("webhook_endpoint", id) : undefined;
  if (existing) {
    ctx.store.put("webhook_endpoint", {
      ...existing,
      url: endpoint.url,
      secret: endpoint.secret,
      events: [...requestSchemas.webhookEventTypes],
      enabled: true,
    });
    return;
  }
  const created = createWebhookEndpoint(ctx, {
    url: endpoint.url,
    secret: endpoint.secret,
    name: "Configured endpoint",
    events: [...requestSchemas.webhookEventTypes],
  });
  ctx.store.setSetting(CONFIGURED_ENDPOINT_KEY, created.id);
}
