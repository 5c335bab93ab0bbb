import { readFileSync } from "node:fs";
import type { SandboxContext } from "./context";
import { ApiError } from "./api-errors";
import { findCheckoutBySecret } from "./checkouts.service";
import type { CheckoutRecord } from "./records";
import { newRouter } from "./http";

/**
 * The browser pages: the hosted checkout, the customer portal, the dashboard and the checkout's default
 * confirmation. Each page's own markup goes into one layout (`layout/`: Atrium's look in `sandbox.css`, the theme
 * in `theme.js`). Scripts are separate files (the app's CSP forbids inline scripts) and every URL in them is
 * relative, so the pages work both at the sandbox's own root and mounted under `/sandbox/polar`.
 */
const read = (file: string) => readFileSync(new URL(file, import.meta.url), "utf8");
/**
 * Scripts and styles, each served at `assets/` + its path in this folder, so a script's relative import
 * (`../layout/format.js`) resolves the same in the browser as in the source tree.
 */
const assets = new Map(
  [
    "checkout-page/checkout.js",
    "dashboard/dashboard.js",
    "portal/portal.js",
    "layout/format.js",
    "layout/theme.js",
    "layout/sandbox.css",
  ].map((file) => [
    file,
    {
      body: read(`./${file}`),
      type: file.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
    },
  ]),
);
const checkoutHtml = read("./checkout-page/checkout.html");
const dashboardHtml = read("./dashboard/dashboard.html");
const portalHtml = read("./portal/portal.html");

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

type Page = {
  title: string;
  /** The relative path from the page's URL back to the sandbox root ("", "../", …), where `assets/` is. */
  root: string;
  /** What the sandbox notice says this page stands in for. */
  notice: string;
  /** The page's markup, inside `<main>`. */
  content: string;
  script?: string;
  isNarrow?: boolean;
  /** Attributes of `<main>`, already escaped. */
  mainAttributes?: string;
};

function layout(page: Page): string {
  const script = page.script ? `\n    <script type="module" src="${page.root}assets/${page.script}"></script>` : "";
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>${page.title} · Billing sandbox</title>
    <link rel="stylesheet" href="${page.root}assets/layout/sandbox.css" />
    <script src="${page.root}assets/layout/theme.js"></script>${script}
  </head>
  <body>
    <header class="site-header">
      <div class="container${page.isNarrow ? " narrow" : ""}">
        <span class="brand">Atrium</span>
        <span class="brand-tag">Billing sandbox</span>
      </div>
    </header>
    <main class="container stack${page.isNarrow ? " narrow" : ""}"${page.mainAttributes ?? ""}>
      <p class="notice" id="sandbox-notice"><strong>Development sandbox.</strong> ${page.notice}</p>
${page.content}
    </main>
  </body>
</html>
`;
}

/** A checkout link that leads nowhere (a mistyped or reset one) gets a page saying so, still with status 404. */
const checkoutNotFound = (root: string) =>
  layout({
    title: "Checkout not found",
    root,
    notice: "This page stands in for the billing provider's checkout: no card is charged and no money moves.",
    content: `      <section class="card page-intro">
        <h1>This checkout does not exist.</h1>
        <p class="muted">The link may be mistyped, or the sandbox was reset since it was made. Start the checkout again from the app.</p>
      </section>`,
    isNarrow: true,
  });

export function pageRoutes(ctx: SandboxContext) {
  const router = newRouter();
  const findCheckout = (secret: string): CheckoutRecord | undefined => {
    try {
      return findCheckoutBySecret(ctx, secret);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  };

  router.get("/assets/:folder/:file", (c) => {
    const asset = assets.get(`${c.req.param("folder")}/${c.req.param("file")}`);
    if (asset === undefined) return c.notFound();
    return c.body(asset.body, 200, { "content-type": asset.type, "cache-control": "no-cache" });
  });

  router.get("/checkout/:secret", (c) => {
    const checkout = findCheckout(c.req.param("secret"));
    if (!checkout) return c.html(checkoutNotFound("../"), 404);
    return c.html(
      layout({
        title: "Checkout",
        root: "../",
        notice: "This page stands in for the billing provider's checkout: no card is charged and no money moves.",
        content: checkoutHtml,
        script: "checkout-page/checkout.js",
        isNarrow: true,
        mainAttributes: ` data-client-secret="${escapeHtml(checkout.client_secret)}"`,
      }),
    );
  });

  // The default success_url when a checkout was created without one.
  router.get("/checkout/:secret/confirmation", (c) => {
    if (!findCheckout(c.req.param("secret"))) return c.html(checkoutNotFound("../../"), 404);
    return c.html(
      layout({
        title: "Payment received",
        root: "../../",
        notice: "This page stands in for the billing provider's confirmation: no card was charged.",
        content: `      <section class="card page-intro">
        <h1>Thank you, your payment was received.</h1>
        <p class="muted">You can close this page.</p>
      </section>`,
        isNarrow: true,
      }),
    );
  });

  router.get("/dashboard", (c) =>
    c.html(
      layout({
        title: "Dashboard",
        root: "",
        notice:
          "The provider's merchant dashboard, offline: its catalogue, customers, payments, clock and webhook deliveries.",
        content: dashboardHtml,
        script: "dashboard/dashboard.js",
      }),
    ),
  );
  // customer_portal_url: the page reads the customer-session token from its own query string.
  router.get("/portal", (c) =>
    c.html(
      layout({
        title: "Customer portal",
        root: "",
        notice:
          "This page stands in for the billing provider's customer portal: no card is charged and no money moves.",
        content: portalHtml,
        script: "portal/portal.js",
      }),
    ),
  );
  router.get("/", (c) => c.redirect(`${ctx.publicUrl}/dashboard`));

  return router;
}
