import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The billing sandbox's hosted checkout page, mounted in the app under /sandbox/polar: a real page
 * under the app's CSP that pays with the test card 4242… and shows the decline of 4000…0002.
 */
const SANDBOX = "/sandbox/polar";
const headers = { authorization: "Bearer e2e" };

async function createCheckout(request: APIRequestContext, baseURL: string, organizationId: string) {
  const products = await request.get(`${SANDBOX}/v1/products/?limit=100`, { headers });
  expect(products.status()).toBe(200);
  const { items } = (await products.json()) as { items: { id: string; name: string }[] };
  const pro = items.find((product) => product.name === "Pro monthly");
  const response = await request.post(`${SANDBOX}/v1/checkouts/`, {
    headers,
    data: {
      products: [pro?.id],
      external_customer_id: organizationId,
      success_url: `${baseURL}/billing/success?checkout_id={CHECKOUT_ID}`,
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; url: string };
}

test.describe("billing sandbox hosted checkout", () => {
  test("pays with 4242 4242 4242 4242 and a discount code, then lands on success_url", async ({
    page,
    request,
    baseURL,
  }) => {
    const organizationId = `org_e2e_paid_${Date.now()}`;
    const checkout = await createCheckout(request, baseURL as string, organizationId);
    expect(checkout.url).toBe(`${baseURL}${SANDBOX}/checkout/${checkout.url.split("/").pop()}`);

    await page.goto(checkout.url);
    await expect(page.getByRole("heading", { name: "Pro monthly" })).toBeVisible();
    await expect(page.getByText("$20.00 / month")).toBeVisible();
    await page.getByLabel("Email", { exact: true }).fill(`${organizationId}@example.test`);
    await page.getByLabel("Name", { exact: true }).fill("E2E Buyer");
    await page.getByLabel("Discount code", { exact: true }).fill("LAUNCH20");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByRole("button", { name: "Pay $16.00" })).toBeVisible();
    await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $16.00" }).click();

    await expect(page).toHaveURL(
      new RegExp(`/billing/success\\?checkout_id=${checkout.id}&customer_session_token=polar_cst_`),
    );
    const after = await request.get(`${SANDBOX}/v1/checkouts/${checkout.id}`, { headers });
    expect(await after.json()).toMatchObject({ status: "succeeded", total_amount: 1600 });

    // The customer portal behind a customer session: the subscription can be set to cancel.
    const session = await request.post(`${SANDBOX}/v1/customer-sessions/`, {
      headers,
      data: { external_customer_id: organizationId },
    });
    expect(session.status()).toBe(201);
    await page.goto(((await session.json()) as { customer_portal_url: string }).customer_portal_url);
    const subscriptions = page.getByRole("table", { name: "Subscriptions" });
    await expect(subscriptions.getByRole("cell", { name: "active", exact: true })).toBeVisible();
    await subscriptions.getByRole("button", { name: "Cancel at period end" }).click();
    await expect(subscriptions.getByRole("cell", { name: "active (cancels)" })).toBeVisible();
    await expect(subscriptions.getByRole("button", { name: "Resume" })).toBeVisible();
  });

  test("declines 4000 0000 0000 0002 with an error and stays on the page", async ({ page, request, baseURL }) => {
    const organizationId = `org_e2e_declined_${Date.now()}`;
    const checkout = await createCheckout(request, baseURL as string, organizationId);

    await page.goto(checkout.url);
    await page.getByLabel("Email", { exact: true }).fill(`${organizationId}@example.test`);
    await page.getByLabel("Card number", { exact: true }).fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: "Pay $20.00" }).click();

    await expect(page.getByRole("alert")).toHaveText("Your card was declined. Nothing was charged; try another card.");
    await expect(page).toHaveURL(checkout.url);
    const after = await request.get(`${SANDBOX}/v1/checkouts/${checkout.id}`, { headers });
    expect(await after.json()).toMatchObject({ status: "failed" });
  });
});

test.describe("billing sandbox pages", () => {
  test("the dashboard lists the seeded catalogue and the sandbox clock", async ({ page }) => {
    await page.goto(`${SANDBOX}/dashboard`);
    await expect(page.getByRole("heading", { name: "Billing sandbox" })).toBeVisible();
    const products = page.getByRole("table", { name: "Products" });
    await expect(products.getByRole("cell", { name: "Pro monthly", exact: true })).toBeVisible();
    await expect(products.getByRole("cell", { name: "Team", exact: true })).toBeVisible();
    await expect(page.getByText(/^Sandbox time:/)).toContainText(
      /^Sandbox time: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}/,
    );
    await expect(page.getByRole("alert")).toBeEmpty();
  });
});
