import { expect, newDevice, ownerOnPro, reloadUntilListed, signUpAndVerify, test, uniqueUser } from "./fixtures";

// global-setup.ts lists this address in ADMIN_EMAILS, so whoever signs up with it is a platform admin.
const BILLING_ADMIN_EMAIL = "billing-recovery-admin@example.test";

test("a platform admin refunds a payment and cancels a subscription, each refused without a reason", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  test.setTimeout(300_000);
  const owner = uniqueUser("payer");
  const organizationName = `Refunded ${owner.username.slice(-6)}`;
  const ownerDevice = await newDevice(browser, baseURL);
  await ownerOnPro(ownerDevice.page, mailbox, owner, organizationName);
  await ownerDevice.context.close();

  await signUpAndVerify(page, mailbox, { ...uniqueUser("admin"), email: BILLING_ADMIN_EMAIL });
  await page.goto("/admin/organizations");
  await page.getByRole("link", { name: organizationName }).click();
  await expect(page.getByRole("heading", { name: organizationName })).toBeVisible();

  // The subscription's first payment reaches Atrium by the provider's webhook: reload until it is listed.
  const refundButton = page.getByRole("button", { name: /^Refund the payment of / });
  await reloadUntilListed(page, refundButton);
  await refundButton.click();
  const refund = page.getByRole("dialog", { name: "Refund payment" });
  await expect(refund.getByLabel("Amount (USD)")).toHaveValue("20.00");
  await refund.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(refund.getByText("Choose a reason", { exact: true })).toBeVisible();
  await expect(refund.getByText("Say why, for the audit log")).toBeVisible();
  await refund.getByLabel("Reason", { exact: true }).selectOption({ label: "Customer asked for it" });
  await refund.getByLabel("Why", { exact: true }).fill("Charged twice by mistake; ticket 5150");
  await refund.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(refund.getByText("$20.00 refunded")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("admin-refund-result.png") });
  await refund.getByRole("button", { name: "Close", exact: true }).click();
  await expect(refund).toBeHidden();
  const refunds = page.getByRole("table", { name: "Refunds" });
  await expect(refunds.getByRole("row").filter({ hasText: "Customer asked for it" })).toContainText("$20.00");

  await page.getByRole("button", { name: "Cancel subscription", exact: true }).click();
  const cancel = page.getByRole("dialog", { name: "Cancel this organization's subscription?" });
  await expect(cancel.getByLabel("Reason", { exact: true })).toBeFocused();
  await cancel.getByRole("button", { name: "Cancel subscription", exact: true }).click();
  await expect(cancel.getByText("Say why, for the audit log")).toBeVisible();
  await expect(cancel).toBeVisible();
  await cancel.getByLabel("Reason", { exact: true }).fill("The owner left the company; ticket 5151");
  await cancel.getByRole("button", { name: "Cancel subscription", exact: true }).click();
  await expect(cancel).toBeHidden();
  await expect(
    page.getByRole("status").filter({ hasText: "The subscription ends with its current period" }),
  ).toBeVisible();
  await expect(page.getByText("Cancels at the end of the period")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("admin-cancel-result.png") });
});
