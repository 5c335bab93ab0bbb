import { expect, extractLink, signIn, signOut, signUpAndVerify, SUBJECTS, test, uniqueUser } from "./fixtures";

test("change the e-mail address: a link to the new one, the change once it is opened, a notice to the old one", async ({
  page,
  mailbox,
  user,
}) => {
  await signUpAndVerify(page, mailbox, user);
  const newEmail = uniqueUser("moved").email;

  await page.getByRole("link", { name: "Open account settings" }).click();
  await expect(page.getByRole("heading", { name: "Change e-mail" })).toBeVisible();
  const field = page.getByLabel("New e-mail address", { exact: true });

  // From the keyboard: the address the account has is refused on the field.
  await field.fill(user.email);
  await field.press("Enter");
  await expect(page.getByText("That is already your e-mail address. Enter the new one.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await field.fill(newEmail);
  await field.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: `We sent a link to ${newEmail}.` })).toBeVisible();
  // Nothing changed yet.
  await expect(page.getByText(user.email, { exact: true })).toBeVisible();
  expect(await mailbox.count(user.email, SUBJECTS.emailChanged)).toBe(0);

  const mail = await mailbox.waitFor(newEmail, SUBJECTS.emailChangeLink);
  await page.goto(extractLink(mail.text));
  await expect(page.getByRole("heading", { name: "E-mail address changed" })).toBeVisible();
  await page.getByRole("link", { name: "Continue" }).click();

  // Still signed in, with the new address; the old one was told.
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
  await expect(page.getByText(newEmail, { exact: true })).toBeVisible();
  await mailbox.waitFor(user.email, SUBJECTS.emailChanged);

  await signOut(page, user.name);
  await signIn(page, newEmail, user.password, user.name);
});
