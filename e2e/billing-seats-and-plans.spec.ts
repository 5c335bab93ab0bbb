import type { Page, Response } from "@playwright/test";
import type { ChangePreview } from "../common/billing.schemas";
import { expect, ownerOnPro, test, uniqueUser } from "./fixtures";

/**
 * Seat and plan changes as an owner makes them: the confirmation shows what is charged now and the next invoice
 * (amount and date), exactly as the server's change preview answers, before anything changes.
 */

const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
// The browser runs in this process's time zone, so the day it shows is the one formatted here.
const day = (iso: string) =>
  new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }).format(new Date(iso));

/** The change-preview answer the page itself receives for `query` (as `seats=5`), read from the network. */
function previewAnswer(page: Page, query: string): Promise<Response> {
  return page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.endsWith("/billing/change-preview") &&
      new URL(response.url()).search.includes(query) &&
      response.request().method() === "GET",
  );
}

async function shownPreview(response: Response): Promise<ChangePreview> {
  expect(response.status()).toBe(200);
  return (await response.json()) as ChangePreview;
}

/** The sentences a preview shows: the charge now and the next invoice, to the cent and the day. */
async function expectPreviewShown(page: Page, dialogName: string, preview: ChangePreview) {
  const dialog = page.getByRole("dialog", { name: dialogName });
  await expect(
    dialog.getByText(
      preview.dueNow > 0 ? `You'll be charged ${money(preview.dueNow)} now.` : "Nothing is charged now.",
    ),
  ).toBeVisible();
  await expect(
    dialog.getByText(
      `Your next invoice, on ${day(preview.nextInvoice.date)}, will be ${money(preview.nextInvoice.amount)}.`,
    ),
  ).toBeVisible();
  return dialog;
}

test("an owner moves Pro to Team in the plan list, choosing seats and seeing the preview before confirming", async ({
  page,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("teamup");
  const organizationName = `Team up ${owner.username.slice(-6)}`;
  await ownerOnPro(page, mailbox, owner, organizationName);

  const team = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Team", exact: true }) });
  await team.getByLabel("Seats", { exact: true }).fill("2");
  await expect(team.getByText("2 seats: $30.00 / month")).toBeVisible();
  const answer = previewAnswer(page, "seats=2");
  await team.getByRole("button", { name: /^(Switch|Upgrade) to Team$/ }).click();
  const preview = await shownPreview(await answer);
  expect(preview.seats).toBe(2);
  const dialog = await expectPreviewShown(page, "Switch to Team (monthly)", preview);
  await expect(dialog.getByText("From Pro (monthly) to Team (monthly).", { exact: false })).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm change" }).click();

  await expect(page.getByRole("status").filter({ hasText: "You are now on Team" }).last()).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const currentTeam = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: "Team", exact: true }) });
  await expect(currentTeam.getByText("Current plan")).toBeVisible();
  await expect(page.getByText(/^You pay for 2 seats;/)).toBeVisible();
});

test("an owner on Team adds seats after a preview and a confirmation, and the page shows the new count", async ({
  page,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("seats");
  const organizationName = `Seats ${owner.username.slice(-6)}`;
  await ownerOnPro(page, mailbox, owner, organizationName);
  const organizationId = new URL(page.url()).pathname.split("/")[2]!;

  // To Team with three seats through the API, as the previous test does through the plan list.
  const moved = await page.evaluate(async (id) => {
    const { plans } = (await (await fetch("/api/billing/plans")).json()) as {
      plans: { key: string; prices: { productId: string; interval: string }[] }[];
    };
    const team = plans.find((plan) => plan.key === "team")!.prices.find((price) => price.interval === "month")!;
    const response = await fetch(`/api/organizations/${id}/billing/subscription`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ productId: team.productId, seats: 3 }),
    });
    return response.status;
  }, organizationId);
  expect(moved).toBe(200);
  await page.reload();
  await expect(page.getByText(/^You pay for 3 seats;/)).toBeVisible();

  const seats = page.getByLabel("Number of seats", { exact: true });
  await seats.fill("5");
  const answer = previewAnswer(page, "seats=5");
  await page.getByRole("button", { name: "Update seats" }).click();
  const preview = await shownPreview(await answer);
  expect(preview.seats).toBe(5);
  const dialog = await expectPreviewShown(page, "Change to 5 seats", preview);
  await expect(dialog.getByText("From 3 seats. It applies as soon as you confirm.")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("seat-change-preview.png") });
  await dialog.getByRole("button", { name: "Confirm seats" }).click();

  await expect(page.getByRole("status").filter({ hasText: "Your plan now has 5 seats" }).last()).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText(/^You pay for 5 seats;/)).toBeVisible();
  await expect(seats).toHaveValue("5");
});
