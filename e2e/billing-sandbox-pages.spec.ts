import type { APIRequestContext, Page } from "@playwright/test";
import { axeViolations } from "./a11y";
import { expect, test } from "./fixtures";

/**
 * The billing sandbox's own pages (hosted checkout, its confirmation and not-found pages, customer portal,
 * dashboard) as a person sees them, mounted in the app: Atrium's look in light and dark, no sideways scrolling at
 * 375 px, dates in the reader's locale and time zone, and no axe-core violations.
 */
const SANDBOX = "/sandbox/polar";
const headers = { authorization: "Bearer e2e" };

// A reader in India: their local time is UTC+5:30, so a date shown in UTC would not match.
const LOCALE = "en-GB";
const TIME_ZONE = "Asia/Kolkata";
test.use({ locale: LOCALE, timezoneId: TIME_ZONE });

const BRAND_600 = "rgb(79, 70, 229)";
const PAGE_BACKGROUND = { light: "rgb(250, 250, 250)", dark: "rgb(9, 9, 11)" } as const;
const SURFACE = { light: "rgb(255, 255, 255)", dark: "rgb(24, 24, 27)" } as const;
type Scheme = keyof typeof PAGE_BACKGROUND;

async function json<T>(response: Awaited<ReturnType<APIRequestContext["get"]>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

async function createCheckout(request: APIRequestContext, data: Record<string, unknown>) {
  const { items } = await json<{ items: { id: string; name: string }[] }>(
    await request.get(`${SANDBOX}/v1/products/?limit=100`, { headers }),
    200,
  );
  const pro = items.find((product) => product.name === "Pro monthly");
  return json<{ id: string; url: string; client_secret: string }>(
    await request.post(`${SANDBOX}/v1/checkouts/`, { headers, data: { products: [pro?.id], ...data } }),
    201,
  );
}

/** A customer who paid with 4242…: the portal URL of their customer session (a subscription and an order to show). */
async function paidCustomerPortal(request: APIRequestContext): Promise<string> {
  const organizationId = `org_e2e_pages_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;
  const checkout = await createCheckout(request, {
    external_customer_id: organizationId,
    // A long address: it must wrap rather than widen the page.
    customer_email: `a-rather-long-billing-contact-address-${organizationId}@example.test`,
  });
  await json(
    await request.post(`${SANDBOX}/v1/checkouts/client/${checkout.client_secret}/confirm`, {
      data: { confirmation_token_id: "tok_visa" },
    }),
    200,
  );
  const session = await json<{ customer_portal_url: string }>(
    await request.post(`${SANDBOX}/v1/customer-sessions/`, { headers, data: { external_customer_id: organizationId } }),
    201,
  );
  return session.customer_portal_url;
}

const style = (page: Page, selector: string, property: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

/** What every page must hold at this size and theme: the theme's colours, the font, no sideways scrolling, no axe violation. */
async function expectWellFormed(page: Page, scheme: Scheme) {
  expect(await style(page, "html", "background-color")).toBe(PAGE_BACKGROUND[scheme]);
  expect(await style(page, "body", "font-family")).toMatch(/^ui-sans-serif, system-ui/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  expect(await axeViolations(page)).toBe("");
}

/** Every date on the page is a `<time>` shown in the reader's locale and zone ("25 Nov 2026, 09:41"), never as ISO. */
async function expectLocalDates(page: Page, atLeast: number) {
  const times = await page
    .locator("main time")
    .evaluateAll((elements) =>
      elements.map((element) => ({ iso: element.getAttribute("datetime") ?? "", text: element.textContent ?? "" })),
    );
  expect(times.length).toBeGreaterThanOrEqual(atLeast);
  const local = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE });
  for (const { iso, text } of times) {
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).toMatch(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2}$/);
    expect(text).toBe(local.format(new Date(iso)));
  }
}

const WIDTHS = [1280, 375] as const;
const SCHEMES: Scheme[] = ["light", "dark"];

for (const scheme of SCHEMES) {
  test.describe(`billing sandbox pages, ${scheme}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
    });

    test("the hosted checkout", async ({ page, request }) => {
      const checkout = await createCheckout(request, { return_url: "http://localhost/billing" });
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(checkout.url);
        await expect(page).toHaveTitle("Checkout · Billing sandbox");
        await expect(page.getByRole("heading", { level: 1, name: "Pro monthly" })).toBeVisible();
        const pay = page.getByRole("button", { name: "Pay $20.00" });
        await expect(pay).toBeEnabled();
        expect(await pay.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(BRAND_600);
        expect(await pay.evaluate((button) => getComputedStyle(button).borderRadius)).toBe("8px");
        expect(await style(page, "#apply-discount", "background-color")).toBe(SURFACE[scheme]);
        await expectWellFormed(page, scheme);

        // The declined card's alert is part of the page too.
        await page.getByLabel("Email", { exact: true }).fill("pages@example.test");
        await page.getByLabel("Card number", { exact: true }).fill("4000 0000 0000 0002");
        await pay.click();
        await expect(page.getByRole("alert")).toHaveText(
          "Your card was declined. Nothing was charged; try another card.",
        );
        await expectWellFormed(page, scheme);
      }
    });

    test("the checkout's confirmation and a checkout link that leads nowhere", async ({ page, request }) => {
      const checkout = await createCheckout(request, {});
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const confirmation = await page.goto(`${checkout.url}/confirmation`);
        expect(confirmation?.status()).toBe(200);
        await expect(page).toHaveTitle("Payment received · Billing sandbox");
        await expect(
          page.getByRole("heading", { level: 1, name: "Thank you, your payment was received." }),
        ).toBeVisible();
        await expectWellFormed(page, scheme);

        const missing = await page.goto(`${SANDBOX}/checkout/polar_c_does_not_exist`);
        expect(missing?.status()).toBe(404);
        await expect(page).toHaveTitle("Checkout not found · Billing sandbox");
        await expect(page.getByRole("heading", { level: 1, name: "This checkout does not exist." })).toBeVisible();
        await expectWellFormed(page, scheme);
      }
    });

    test("the customer portal", async ({ page, request }) => {
      const portalUrl = await paidCustomerPortal(request);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(portalUrl);
        await expect(page).toHaveTitle("Customer portal · Billing sandbox");
        const subscriptions = page.getByRole("table", { name: "Subscriptions" });
        await expect(subscriptions.getByRole("cell", { name: "active", exact: true })).toBeVisible();
        await expect(page.getByRole("table", { name: "Orders" }).getByRole("cell", { name: "$20.00" })).toBeVisible();
        const cancel = subscriptions.getByRole("button", { name: "Cancel at period end" });
        expect(await cancel.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(SURFACE[scheme]);
        expect(await cancel.evaluate((button) => getComputedStyle(button).borderRadius)).toBe("8px");
        // Below 640 px each row is a block whose cells are led by their column's name.
        const statusCell = subscriptions.getByRole("cell", { name: "active", exact: true });
        const label = await statusCell.evaluate((cell) => getComputedStyle(cell, "::before").content);
        expect(label).toBe(width === 375 ? '"Status" / ""' : "none");
        await expectLocalDates(page, 2);
        await expectWellFormed(page, scheme);
      }
    });

    test("the dashboard", async ({ page, request }) => {
      // A payment, so every table has rows: customers, subscriptions, orders, webhook deliveries.
      await paidCustomerPortal(request);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${SANDBOX}/dashboard`);
        await expect(page).toHaveTitle("Dashboard · Billing sandbox");
        await expect(page.getByRole("heading", { level: 1, name: "Billing sandbox" })).toBeVisible();
        await expect(page.getByRole("table", { name: "Orders" }).getByRole("row").nth(1)).toBeVisible();
        await expect(
          page.getByRole("table", { name: "Webhook deliveries" }).getByRole("button", { name: "Redeliver" }).first(),
        ).toBeVisible();
        await expect(page.getByRole("alert")).toBeEmpty();
        expect(await style(page, "#refresh", "background-color")).toBe(SURFACE[scheme]);
        await expectLocalDates(page, 4);
        await expectWellFormed(page, scheme);
      }
    });
  });
}

test.describe("billing sandbox theme", () => {
  test("follows the theme saved in the Atrium app on the same origin over the system's", async ({ page }) => {
    for (const [system, saved] of [
      ["light", "dark"],
      ["dark", "light"],
    ] as const) {
      await page.emulateMedia({ colorScheme: system });
      await page.goto(`${SANDBOX}/dashboard`);
      await page.evaluate((choice) => localStorage.setItem("atrium-theme", choice), saved);
      await page.reload();
      await expect(page.getByRole("heading", { level: 1, name: "Billing sandbox" })).toBeVisible();
      expect(await style(page, "html", "background-color")).toBe(PAGE_BACKGROUND[saved]);
      expect(await axeViolations(page)).toBe("");
    }
  });
});
