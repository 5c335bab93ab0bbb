import { readFileSync } from "node:fs";
import type { SandboxContext } from "./context";
import { newRouter } from "./http";
import { findCheckoutBySecret } from "./checkouts.service";

/**
 * The browser pages: the hosted checkout, the customer portal and the dashboard. Scripts are separate files (the app's
 * CSP forbids inline scripts) and every URL in them is relative, so the pages work both at the
 * sandbox's own root and mounted under `/sandbox/polar`.
 */
const read = (file: string) => readFileSync(new URL(file, import.meta.url), "utf8");
const assets: Record<string, string> = {
  "checkout.js": read("./checkout-page/checkout.js"),
  "dashboard.js": read("./dashboard/dashboard.js"),
  "portal.js": read("./portal/portal.js"),
};
const checkoutHtml = read("./checkout-page/checkout.html");
const dashboardHtml = read("./dashboard/dashboard.html");
const portalHtml = read("./portal/portal.html");

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function pageRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/assets/:file", (c) => {
    const body = assets[c.req.param("file")];
    if (body === undefined) return c.notFound();
    return c.body(body, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" });
  });

  router.get("/checkout/:secret", (c) => {
    const checkout = findCheckoutBySecret(ctx, c.req.param("secret"));
    return c.html(checkoutHtml.replace("{{CLIENT_SECRET}}", escapeHtml(checkout.client_secret)));
  });

  // The default success_url when a checkout was created without one.
  router.get("/checkout/:secret/confirmation", (c) => {
    findCheckoutBySecret(ctx, c.req.param("secret"));
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment received</title></head><body><main><h1>Thank you, your payment was received.</h1></main></body></html>`,
    );
  });

  router.get("/dashboard", (c) => c.html(dashboardHtml));
  // customer_portal_url: the page reads the customer-session token from its own query string.
  router.get("/portal", (c) => c.html(portalHtml));
  router.get("/", (c) => c.redirect(`${ctx.publicUrl}/dashboard`));

  return router;
}
