import { SUBJECTS, expect, fillSignIn, newDevice, signUpAndVerify, test, uniqueUser } from "./fixtures";

test("delete the account through the confirmation dialog; signing in again fails", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account");
  await page
    .getByRole("navigation", { name: "Account settings" })
    .getByRole("link", { name: "Delete account" })
    .click();
  await page.getByRole("button", { name: "Delete my account…" }).click();

  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Password", { exact: true })).toBeFocused();

  // Nothing happens until the password and the confirmation phrase are given.
  await dialog.getByRole("button", { name: "Delete account" }).click();
  await expect(dialog.getByText("Enter your password", { exact: true })).toBeVisible();
  await expect(dialog.getByText("Type “delete my account” to confirm")).toBeVisible();

  await dialog.getByLabel("Password", { exact: true }).fill("not-my-password");
  await dialog.getByLabel("Type “delete my account”", { exact: true }).fill("delete my account");
  await dialog.getByRole("button", { name: "Delete account" }).click();
  await expect(dialog.getByText("That password is not right.")).toBeVisible();

  await dialog.getByLabel("Password", { exact: true }).fill(user.password);
  await dialog.getByRole("button", { name: "Delete account" }).click();

  await expect(page).toHaveURL(/\/\?notice=/);
  await expect(page.getByRole("status").filter({ hasText: "Your account was deleted." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "The foundation for your SaaS" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Account menu/ })).toHaveCount(0);
  await mailbox.waitFor(user.email, SUBJECTS.accountDeleted);

  await fillSignIn(page, user.email, user.password);
  await expect(page.getByRole("alert")).toHaveText("That e-mail or password is not right.");
});

test("cancelling the dialog keeps the account", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account/delete");
  await page.getByRole("button", { name: "Delete my account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Delete my account…" }).click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByRole("button", { name: `Account menu for ${user.name}` })).toBeVisible();
});

const LISTING_AND_TRANSFER =
  "the confirmation lists the organizations going with the account; a sole owner transfers first";

test(LISTING_AND_TRANSFER, async ({ page, browser, baseURL, mailbox, user }) => {
  const suffix = user.username
    .slice(-6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  const shared = { name: `Shared ${suffix}`, slug: `shared-${suffix}` };
  const solo = { name: `Solo ${suffix}`, slug: `solo-${suffix}` };
  await signUpAndVerify(page, mailbox, user);
  // The organizations are made through the API with the page's own session (the organization pages have their tests).
  const headers = { origin: new URL(baseURL ?? "").origin };
  const created = await page.request.post("/api/auth/organization/create", { data: shared, headers });
  expect(created.status()).toBe(200);
  const sharedId = ((await created.json()) as { id: string }).id;
  expect((await page.request.post("/api/auth/organization/create", { data: solo, headers })).status()).toBe(200);

  const member = uniqueUser("member");
  const memberDevice = await newDevice(browser, baseURL);
  await signUpAndVerify(memberDevice.page, mailbox, member);
  const invited = await page.request.post("/api/auth/organization/invite-member", {
    data: { email: member.email, role: "member", organizationId: sharedId },
    headers,
  });
  expect(invited.status()).toBe(200);
  const invitationId = ((await invited.json()) as { id: string }).id;
  const accept = { data: { invitationId }, headers };
  const accepted = await memberDevice.page.request.post("/api/auth/organization/accept-invitation", accept);
  expect(accepted.status()).toBe(200);

  // Before confirming, the dialog lists what goes with the account and what must be handed over first.
  await page.goto("/account/delete");
  await page.getByRole("button", { name: "Delete my account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  const alsoDeleted = dialog.getByRole("region", { name: "Also deleted: organizations where you are the only member" });
  await expect(alsoDeleted.getByRole("listitem")).toHaveText([solo.name]);
  const handOver = dialog.getByRole("region", { name: "Hand these organizations over first" });
  await expect(handOver.getByRole("listitem")).toHaveCount(1);
  await expect(handOver.getByRole("link", { name: `Delete ${shared.name}` })).toBeVisible();

  // Confirming anyway is refused by the server, which names the organization.
  await dialog.getByLabel("Password", { exact: true }).fill(user.password);
  await dialog.getByLabel("Type “delete my account”", { exact: true }).fill("delete my account");
  await dialog.getByRole("button", { name: "Delete account" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(/only owner of organizations with other members/);
  await expect(handOver.getByRole("listitem")).toHaveText(new RegExp(shared.name));

  // Transfer: the link opens the organization's members, where the member is made an owner, by keyboard.
  await handOver.getByRole("link", { name: `Transfer ownership of ${shared.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${sharedId}/settings/members`));
  const role = page.getByLabel(`Role of ${member.name}`);
  await role.focus();
  await role.selectOption("owner");
  await page.getByRole("dialog").getByRole("button", { name: "Make them Owner" }).press("Enter");
  await expect(page.getByRole("status").filter({ hasText: `${member.name} is now an owner` })).toBeVisible();

  // Now the account goes, with the one-person organization; the shared one stays with its new owner.
  await page.goto("/account/delete");
  await page.getByRole("button", { name: "Delete my account…" }).click();
  await expect(dialog.getByRole("region", { name: "Hand these organizations over first" })).toHaveCount(0);
  await expect(alsoDeleted.getByRole("listitem")).toHaveText([solo.name]);
  await dialog.getByLabel("Password", { exact: true }).fill(user.password);
  await dialog.getByLabel("Type “delete my account”", { exact: true }).fill("delete my account");
  await dialog.getByRole("button", { name: "Delete account" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your account was deleted." })).toBeVisible();

  const listed = await memberDevice.page.request.get("/api/auth/organization/list");
  const organizations = (await listed.json()) as Array<{ slug: string }>;
  expect(organizations.map((organization) => organization.slug)).toEqual([shared.slug]);
  await memberDevice.context.close();
});
