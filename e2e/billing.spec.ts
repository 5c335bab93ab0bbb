import { expect, signUpAndVerify, test, uniqueUser } from "./fixtures";

/**
 * Billing as an owner does it with nothing configured: the plan comparison, the provider's hosted checkout
 * (the sandbox's page), the return that waits for the webhook, the paid plan's limits, then a cancellation.
 */
test("an owner upgrades an organization through the hosted checkout, sees the paid plan's limits, then cancels", async ({
  page,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("payer");
  const organizationName = `Billing ${owner.username.slice(-6)}`;
  await signUpAndVerify(page, mailbox, owner);
  await page.getByRole("link", { name: "New organization" }).click();
  await page.getByLabel("Name", { exact: true }).fill(organizationName);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: organizationName })).toBeVisible();
  const settings = page.getByRole("navigation", { name: "Organization settings" });

  // On the free plan the teams page counts against the plan's limit.
  await settings.getByRole("link", { name: "Teams" }).click();
  await expect(page.getByText("Teams: 1 of 5")).toBeVisible();

  await settings.getByRole("link", { name: "Billing" }).click();
  await expect(page.getByText("Free forever, no card needed.")).toBeVisible();
  await page.getByRole("button", { name: "Upgrade to Pro" }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe to Pro" });
  await dialog.getByLabel("Discount code (optional)").fill("LAUNCH20");
  await dialog.getByRole("button", { name: "Continue to payment" }).click();

  // The provider's hosted page (the sandbox offline): the discount is already applied.
  await expect(page.getByRole("heading", { name: "Pro monthly" })).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(owner.email);
  await page.getByLabel("Name", { exact: true }).fill(owner.name);
  await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $16.00" }).click();

  // Back in Atrium: the page follows the payment until the webhook has arrived, with no manual refresh.
  await expect(page.getByRole("status").filter({ hasText: "You are now on Pro" })).toBeVisible({ timeout: 20_000 });
  await expect(page).not.toHaveURL(/checkout=/);
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByText("Visa ending in 4242")).toBeVisible();
  await expect(page.getByRole("cell", { name: "Paid" })).toBeVisible();

  // The paid plan's benefit lifts the team limit.
  await settings.getByRole("link", { name: "Teams" }).click();
  await expect(page.getByText("1 team, unlimited")).toBeVisible();

  // Cancel at the end of the period, with a reason.
  await settings.getByRole("link", { name: "Billing" }).click();
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  const cancel = page.getByRole("dialog");
  await cancel.getByLabel("Why are you canceling?").selectOption("too_expensive");
  await cancel.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(page.getByText(/^Cancels on /).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Resume subscription" })).toBeVisible();
});

test("a declined card on the hosted checkout comes back to Atrium with a clear message and the plan unchanged", async ({
  page,
  mailbox,
}) => {
  test.setTimeout(180_000);
  const owner = uniqueUser("declined");
  await signUpAndVerify(page, mailbox, owner);
  await page.getByRole("link", { name: "New organization" }).click();
  await page.getByLabel("Name", { exact: true }).fill(`Declined ${owner.username.slice(-6)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await page.getByRole("navigation", { name: "Organization settings" }).getByRole("link", { name: "Billing" }).click();
  await page.getByRole("button", { name: "Upgrade to Pro" }).click();
  await page
    .getByRole("dialog", { name: "Subscribe to Pro" })
    .getByRole("button", { name: "Continue to payment" })
    .click();

  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(owner.email);
  await page.getByLabel("Card number", { exact: true }).fill("4000 0000 0000 0002");
  await page.getByRole("button", { name: "Pay $20.00" }).click();
  await expect(page.getByRole("alert")).toHaveText("Your card was declined. Nothing was charged; try another card.");
  await page.getByRole("link", { name: "Cancel and go back" }).click();

  await expect(
    page.getByText("Your card was declined. Nothing was charged and your plan has not changed."),
  ).toBeVisible();
  await expect(page.getByText("Free forever, no card needed.")).toBeVisible();
});
