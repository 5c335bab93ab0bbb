import { expect, ownerOnPro, reloadUntilListed, test, uniqueUser } from "./fixtures";

/**
 * A plan change as an owner makes it: the confirmation shows what is charged now and the next invoice (amount and
 * date) before anything is charged, then the change applies.
 */
test("an owner switches Pro from monthly to yearly after seeing what is charged now and on the next invoice", async ({
  page,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("switcher");
  const organizationName = `Switch ${owner.username.slice(-6)}`;
  await ownerOnPro(page, mailbox, owner, organizationName);

  await page.getByRole("radio", { name: "Yearly" }).check();
  await page.getByRole("button", { name: "Switch to yearly billing" }).click();
  const dialog = page.getByRole("dialog", { name: "Switch to Pro (yearly)" });
  // Just subscribed: the year in full less the (whole) unused month, and nothing more for a year.
  await expect(dialog.getByText("You'll be charged $180.00 now.")).toBeVisible();
  await expect(dialog.getByText(/^Your next invoice, on .+, will be \$200\.00\.$/)).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm change" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You are now on Pro" }).last()).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // The charge's order reaches Atrium by the provider's webhook: it is listed once it has arrived.
  await reloadUntilListed(page, page.getByRole("table", { name: "Payments" }).getByText("$180.00", { exact: true }));
});
