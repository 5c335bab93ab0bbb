import { expect, newDevice, signIn, signUpAndVerify, test } from "./fixtures";

test("the sessions page lists every device; one is revoked, then all others after confirming", async ({
  page,
  mailbox,
  user,
  browser,
  baseURL,
  clientAddress,
}) => {
  await signUpAndVerify(page, mailbox, user);
  const phone = await newDevice(browser, baseURL);
  const laptop = await newDevice(browser, baseURL);
  await signIn(phone.page, user.email, user.password, user.name);
  await signIn(laptop.page, user.username, user.password, user.name);

  await page.getByRole("button", { name: `Account menu for ${user.name}` }).click();
  await page.getByRole("menuitem", { name: "Sessions" }).click();
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();

  const table = page.getByRole("table");
  for (const column of ["Device", "IP address", "Signed in", "Last active"]) {
    await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
  }
  const rows = table.getByRole("row");
  await expect(rows).toHaveCount(4); // the header, this device and two others
  const current = rows.filter({ hasText: "This device" });
  await expect(current).toContainText("Chrome on Windows"); // the user agent of the Desktop Chrome profile
  await expect(current).toContainText(clientAddress);
  await expect(current).toContainText("just now");
  await expect(current).toContainText(String(new Date().getFullYear()));
  await expect(current.getByRole("button")).toHaveCount(0);
  await expect(rows.filter({ hasText: phone.address })).toHaveCount(1);

  // Revoke one other session: that browser is signed out, the rest stay.
  await rows
    .filter({ hasText: phone.address })
    .getByRole("button", { name: `Sign out Chrome on Windows (${phone.address})` })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Session signed out" })).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: phone.address })).toHaveCount(0);
  await phone.page.goto("/account");
  await expect(phone.page).toHaveURL(/\/sign-in\?redirect=/);

  // "Sign out all other sessions" asks first; cancelling changes nothing.
  const dialog = page.getByRole("dialog", { name: "Sign out all other sessions?" });
  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  await expect(dialog).toContainText("1 other session will be signed out");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(3);

  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  await dialog.getByRole("button", { name: "Sign out others" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Other sessions signed out" })).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Sign out all other sessions" })).toHaveCount(0);

  await laptop.page.goto("/account");
  await expect(laptop.page).toHaveURL(/\/sign-in\?redirect=/);
  await page.reload();
  await expect(rows.filter({ hasText: "This device" })).toHaveCount(1);
  await phone.context.close();
  await laptop.context.close();
});
