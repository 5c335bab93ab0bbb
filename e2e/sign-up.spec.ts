import { SUBJECTS, expect, extractLink, test } from "./fixtures";

test("a new person signs up, verifies the e-mail from the mailbox and lands signed in", async ({
  page,
  mailbox,
  user,
}) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("E-mail", { exact: true }).fill(user.email);
  await page.getByLabel("Username (optional)", { exact: true }).fill(user.username);
  await expect(page.getByText("This username is available")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await expect(page.getByText(user.email)).toBeVisible();

  const mail = await mailbox.waitFor(user.email, SUBJECTS.verification);
  await page.goto(extractLink(mail.text));

  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();
  await expect(page.getByText(`Signed in as ${user.email} · @${user.username}`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Account menu for ${user.name}` })).toBeVisible();
});
