import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { axeViolations } from "./a11y";
import {
  createOrganization,
  expect,
  invitationLink,
  invite,
  newDevice,
  openSettingsTab,
  screenshotPage,
  signUpAndVerify,
  test,
  uniqueUser,
} from "./fixtures";

type Receipt = { id: string; receivedAt: string; headers: Record<string, string>; body: string; verified: boolean };

/**
 * What the development receiver (/dev/webhooks, on the same server) was sent of `type` for the organization: it
 * keeps every delivery with its headers and whether its signature verified against the endpoints' secrets.
 */
async function receiptsOf(request: APIRequestContext, organizationId: string, type: string): Promise<Receipt[]> {
  const response = await request.get("/dev/webhooks/receipts");
  expect(response.status()).toBe(200);
  return ((await response.json()) as Receipt[]).filter((receipt) => {
    const body = JSON.parse(receipt.body) as { type: string; data: { organizationId: string } };
    return body.type === type && body.data.organizationId === organizationId;
  });
}

/** Waits for the receiver to hold `count` deliveries of `type` for the organization, and answers them. */
async function waitForReceipts(request: APIRequestContext, organizationId: string, type: string, count = 1) {
  let found: Receipt[] = [];
  await expect
    .poll(
      async () => {
        found = await receiptsOf(request, organizationId, type);
        return found.length;
      },
      { message: `${count} ${type} deliveries at the receiver`, timeout: 30_000 },
    )
    .toBe(count);
  return found;
}

/** The delivery log's row of the newest attempt of `type`, once the log (which reads itself again) shows it. */
function deliveryOf(log: Locator, type: string): Locator {
  return log.getByRole("listitem").filter({ has: log.page().getByText(type, { exact: true }) });
}

async function press(page: Page, button: Locator) {
  await button.focus();
  await page.keyboard.press("Enter");
}

test("an owner points an endpoint at the development receiver and follows its signed deliveries", async ({
  page,
  context,
  browser,
  baseURL,
  request,
  mailbox,
}) => {
  // Two people, three deliveries and four axe runs: 78 to 96 s alone on two cores.
  test.setTimeout(240_000);
  const owner = uniqueUser("hookowner");
  await signUpAndVerify(page, mailbox, owner);
  const organizationId = await createOrganization(page, `Hooks ${owner.username.slice(-6)}`);
  await openSettingsTab(page, "Webhooks");
  await expect(page.getByText("No endpoints yet. Add one above.")).toBeVisible();

  // What is missing is said on its field, before anything is sent.
  const url = page.getByLabel("Endpoint URL", { exact: true });
  const events = page.getByRole("group", { name: "Events" });
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(url).toHaveAccessibleDescription("Enter an http or https URL");
  await expect(events).toHaveAccessibleDescription("Choose at least one event");

  // An address webhooks never reach (a cloud metadata service's) is refused by the server, in words.
  await url.fill("http://169.254.169.254/latest/meta-data");
  await events.getByRole("checkbox", { name: /invitation\.created/ }).check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "This URL points to a private or reserved address. Webhooks are sent to public addresses only.",
  );
  await expect(url).not.toHaveAttribute("aria-invalid");
  const refused = await page.request.post(`/api/organizations/${organizationId}/webhooks`, {
    headers: { origin: new URL(baseURL!).origin },
    data: { url: "http://169.254.169.254/latest/meta-data", events: ["invitation.created"] },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toEqual({
    code: "WEBHOOK_URL_REFUSED",
    message: "This URL points to a private or reserved address: webhooks are sent to public addresses only",
    details: { address: "169.254.169.254" },
    requestId: expect.any(String),
  });
  await expect(page.getByText("No endpoints yet. Add one above.")).toBeVisible();

  // The receiver's URL, from the keyboard: the fields, two events ticked with Space, then the button.
  const receiverUrl = `${baseURL}/dev/webhooks`;
  await url.fill("");
  await url.focus();
  await page.keyboard.type(receiverUrl);
  await page.keyboard.press("Tab");
  await page.keyboard.type("Development receiver");
  await page.keyboard.press("Tab");
  await expect(events.getByRole("checkbox", { name: /member\.added/ })).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  // Ticked while the address was refused, and kept.
  await expect(events.getByRole("checkbox", { name: /invitation\.created/ })).toBeChecked();
  await press(page, page.getByRole("button", { name: "Add endpoint" }));

  // The signing secret is shown in a dialog, with a Copy button.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const dialog = page.getByRole("dialog", { name: "Copy the signing secret" });
  await expect(dialog).toContainText(`Verify each delivery to ${receiverUrl} with this secret.`);
  const secret = await dialog.getByLabel("Signing secret", { exact: true }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  expect(await axeViolations(page), "the page with the new endpoint's secret").toBe("");
  await dialog.getByRole("button", { name: "Copy Signing secret" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Signing secret copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(url).toHaveValue("");

  const endpoint = page.getByRole("list", { name: "Endpoints" }).getByRole("listitem").first();
  await expect(endpoint.getByRole("heading", { name: receiverUrl })).toBeVisible();
  await expect(endpoint).toContainText("Development receiver");
  await expect(endpoint.getByText("Enabled", { exact: true })).toBeVisible();
  await expect(endpoint).toContainText("Events: member.added, invitation.created");

  // An invitation is an event: the log (open, reading itself again) shows its delivery and the receiver's 200.
  const invitee = uniqueUser("hookinvitee");
  await invite(page, invitee.email, "member");
  await openSettingsTab(page, "Webhooks");
  const showLog = endpoint.getByRole("button", { name: "Show deliveries" });
  await expect(showLog).toHaveAttribute("aria-expanded", "false");
  await press(page, showLog);
  await expect(endpoint.getByRole("button", { name: "Hide deliveries" })).toHaveAttribute("aria-expanded", "true");
  const log = endpoint.getByRole("list", { name: "Deliveries" });
  await expect(deliveryOf(log, "invitation.created")).toContainText("200");
  await expect(deliveryOf(log, "invitation.created")).toContainText("attempt 1 · ");
  await expect(deliveryOf(log, "invitation.created")).toContainText('{"received":true}');
  await expect(endpoint).toContainText("Deliveries are kept for 30 days after they succeed or are given up.");

  // The receiver got it signed with the secret the dialog showed, per Standard Webhooks.
  const [invited] = await waitForReceipts(request, organizationId, "invitation.created");
  expect(invited!.verified).toBe(true);
  expect(invited!.headers["webhook-id"]).toMatch(/^msg_/);
  expect(invited!.headers["webhook-signature"]).toMatch(/^v1,\S+$/);
  expect(new Webhook(secret).verify(invited!.body, invited!.headers)).toEqual({
    type: "invitation.created",
    timestamp: expect.any(String),
    data: {
      organizationId,
      target: { type: "invitation", id: expect.any(String), label: invitee.email },
      role: "member",
    },
  });

  // The invitee joins: member.added is delivered after it, and a member is offered no webhooks.
  const device = await newDevice(browser, baseURL);
  await signUpAndVerify(device.page, mailbox, invitee);
  await device.page.goto(await invitationLink(mailbox, invitee.email));
  await device.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(device.page.getByRole("heading", { name: `Welcome, ${invitee.name}` })).toBeVisible();
  const [joined] = await waitForReceipts(request, organizationId, "member.added");
  expect(new Webhook(secret).verify(joined!.body, joined!.headers)).toMatchObject({
    type: "member.added",
    data: { organizationId, target: { type: "user", label: invitee.email }, role: "member" },
  });
  await expect(deliveryOf(log, "member.added")).toContainText("200");
  await device.page.goto(`/organizations/${organizationId}/settings`);
  const memberTabs = device.page.getByRole("navigation", { name: "Organization settings" });
  await expect(memberTabs.getByRole("link", { name: "Members" })).toBeVisible();
  await expect(memberTabs.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  await device.page.goto(`/organizations/${organizationId}/settings/webhooks`);
  await expect(device.page.getByText("Only owners and admins can manage webhooks.")).toBeVisible();
  await expect(device.page.getByLabel("Endpoint URL")).toHaveCount(0);
  const memberRead = await device.page.request.get(`/api/organizations/${organizationId}/webhooks`);
  expect(memberRead.status()).toBe(403);
  expect(await memberRead.json()).toEqual({
    code: "WEBHOOK_ADMIN_REQUIRED",
    message: "Only the organization's owners and admins can manage its webhooks",
    requestId: expect.any(String),
  });
  await screenshotPage(device.page, "webhooks-member");
  await device.context.close();

  // A rotated secret signs next to the previous one for a day: a test event carries both signatures.
  await press(page, endpoint.getByRole("button", { name: "Rotate secret" }));
  await expect(
    page.getByRole("status").filter({ hasText: "Secret rotated: the previous one still signs for 24 hours" }),
  ).toBeVisible();
  const rotated = await endpoint.getByLabel("Signing secret", { exact: true }).inputValue();
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await press(page, endpoint.getByRole("button", { name: "Send test event" }));
  await expect(page.getByRole("status").filter({ hasText: "Test event queued" })).toBeVisible();
  await expect(deliveryOf(log, "webhook.test")).toContainText("200");
  const [tested] = await waitForReceipts(request, organizationId, "webhook.test");
  expect(tested!.verified).toBe(true);
  expect(tested!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
  expect(new Webhook(rotated).verify(tested!.body, tested!.headers)).toMatchObject({ type: "webhook.test" });
  expect(new Webhook(secret).verify(tested!.body, tested!.headers)).toMatchObject({ type: "webhook.test" });
  expect(await axeViolations(page), "the endpoint with its secret and delivery log").toBe("");
  await screenshotPage(page, "webhooks-deliveries");

  // The receiver's own page says each of them verified.
  const receiver = await context.newPage();
  await receiver.goto("/dev/webhooks");
  await expect(receiver.getByRole("heading", { name: "Development webhook receiver" })).toBeVisible();
  for (const type of ["invitation.created", "member.added", "webhook.test"])
    await expect(
      receiver
        .getByRole("article")
        .filter({ hasText: `"type":"${type}"` })
        .filter({ hasText: organizationId }),
    ).toContainText("Signature verified");
  await screenshotPage(receiver, "webhooks-receiver");
  await receiver.close();

  // Off, then on again; the state is the server's (a reload keeps it).
  await press(page, endpoint.getByRole("button", { name: "Turn off" }));
  await expect(endpoint.getByText("Off", { exact: true })).toBeVisible();
  await page.reload();
  await expect(endpoint.getByRole("button", { name: "Turn on" })).toBeVisible();
  await expect(endpoint.getByText("Off", { exact: true })).toBeVisible();
  await press(page, endpoint.getByRole("button", { name: "Turn on" }));
  await expect(endpoint.getByText("Enabled", { exact: true })).toBeVisible();

  // Removing asks first; then the list is empty again and focus is on its title.
  await press(page, endpoint.getByRole("button", { name: "Remove" }));
  const confirm = page.getByRole("dialog", { name: `Remove ${receiverUrl}?` });
  await expect(confirm).toContainText("Nothing more is sent to it, and its secret and delivery log are deleted.");
  await confirm.getByRole("button", { name: "Remove endpoint" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Webhook endpoint removed" })).toBeVisible();
  await expect(page.getByText("No endpoints yet. Add one above.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Endpoints" })).toBeFocused();
  await screenshotPage(page, "webhooks-empty");
});
