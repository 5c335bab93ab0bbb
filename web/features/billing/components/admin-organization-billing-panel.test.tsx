import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type {
  AdminOrganizationBilling,
  BillingOverview,
  BillingSubscription,
} from "../../../../common/billing.schemas";
import { createQueryClient } from "../../../lib/query-client";
import { AdminOrganizationBillingPanel } from "./admin-organization-billing-panel";

const ORG = "org_1";
const VIEW = `/api/admin/billing/organizations/${ORG}`;

const subscription: BillingSubscription = {
  id: "sub_1",
  status: "active",
  productId: "prod_pro_m",
  recurringInterval: "month",
  amount: 2000,
  currency: "usd",
  currentPeriodStart: "2026-03-03T12:00:00Z",
  currentPeriodEnd: "2026-04-03T12:00:00Z",
  cancelAtPeriodEnd: false,
  canceledAt: null,
  endsAt: null,
  cancellationReason: null,
  seats: null,
  discountId: null,
  discount: null,
};

const overview: BillingOverview = {
  plan: { key: "pro", name: "Pro", productId: "prod_pro_m" },
  subscription,
  entitlements: { features: [], limits: { members: null, teams: null } },
  seats: { used: 2, limit: null },
  meters: [],
  orders: [
    {
      id: "ord_1",
      createdAt: "2026-03-03T12:00:00Z",
      totalAmount: 2000,
      refundedAmount: 0,
      currency: "usd",
      status: "paid",
      billingReason: "subscription_create",
      productName: "Pro monthly",
      invoiceNumber: "INV-1",
    },
  ],
  paymentMethod: null,
  canManage: false,
  syncedAt: null,
  lastCheckout: null,
};

let view: AdminOrganizationBilling;
/** Each POST's path and body; `answers` gives a path's answer (a promise the test settles, or a status and body). */
let posted: Array<{ path: string; body: unknown }>;
let answers: Record<string, () => Promise<Response>>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  view = { organization: { id: ORG, name: "Navy Labs", slug: "navy" }, overview, refunds: [] };
  posted = [];
  answers = {};
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), "http://localhost");
      if (init?.method === "POST") {
        posted.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
        return answers[url.pathname]?.() ?? json({ code: "NOT_FOUND", message: "no route" }, 404);
      }
      if (url.pathname === VIEW) return json(view);
      if (url.pathname === "/api/billing/plans") return json({ plans: [] });
      return json({ code: "NOT_FOUND", message: "no route" }, 404);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderPanel() {
  const notify = { success: vi.fn(), error: vi.fn() };
  render(
    <QueryClientProvider client={createQueryClient(notify)}>
      <AdminOrganizationBillingPanel organizationId={ORG} />
    </QueryClientProvider>,
  );
  return { notify };
}

async function open(button: string, title: string) {
  const actor = userEvent.setup();
  await actor.click(await screen.findByRole("button", { name: button }));
  return { actor, dialog: await screen.findByRole("dialog", { name: title }) };
}

describe("an operator cancels an organization's subscription", () => {
  const CANCEL = `${VIEW}/subscription/cancel`;

  it("asks when and why, then sends both and closes with a confirmation", async () => {
    answers[CANCEL] = async () => {
      view = { ...view, overview: { ...overview, subscription: { ...subscription, cancelAtPeriodEnd: true } } };
      return json(view);
    };
    const { notify } = renderPanel();
    const { actor, dialog } = await open("Cancel subscription", "Cancel this organization's subscription?");
    expect(within(dialog).getByRole("radio", { name: /At the end of the period/ })).toHaveProperty("checked", true);

    await actor.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    await within(dialog).findByText("Say why, for the audit log");
    expect(posted).toEqual([]);

    await actor.click(within(dialog).getByRole("radio", { name: /Now/ }));
    await actor.type(within(dialog).getByLabelText("Reason"), "Nobody can manage it");
    await actor.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted).toEqual([{ path: CANCEL, body: { when: "now", reason: "Nobody can manage it" } }]);
    expect(notify.success).toHaveBeenCalledWith("The subscription has ended");
    await screen.findByText("Cancels at the end of the period");
  });

  it("shows that it is working, then the server's refusal in the dialog", async () => {
    let answer: (response: Response) => void = () => {};
    answers[CANCEL] = () => new Promise((resolve) => (answer = resolve));
    const { notify } = renderPanel();
    const { actor, dialog } = await open("Cancel subscription", "Cancel this organization's subscription?");
    await actor.type(within(dialog).getByLabelText("Reason"), "Owner gone");
    await actor.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    await within(dialog).findByRole("button", { name: "Canceling…" });
    answer(json({ code: "BAD_GATEWAY", message: "The payment provider refused to cancel the subscription." }, 502));
    await within(dialog).findByRole("alert");
    expect(screen.getByRole("dialog")).toBeDefined();
    expect(notify.error).not.toHaveBeenCalled();
  });

  it("offers only 'now' for a subscription that already ends with its period, and closes with Escape", async () => {
    view = { ...view, overview: { ...overview, subscription: { ...subscription, cancelAtPeriodEnd: true } } };
    renderPanel();
    const { actor, dialog } = await open("Cancel subscription", "Cancel this organization's subscription?");
    expect(
      within(dialog)
        .getAllByRole("radio")
        .map((radio) => radio.getAttribute("value")),
    ).toEqual(["now"]);
    await actor.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted).toEqual([]);
  });
});

describe("an operator refunds a payment", () => {
  it("needs a reason for the audit log, sent as the refund's comment", async () => {
    const REFUNDS = `${VIEW}/refunds`;
    answers[REFUNDS] = async () =>
      json({
        id: "re_1",
        orderId: "ord_1",
        amount: 2000,
        currency: "usd",
        reason: "duplicate",
        status: "succeeded",
        createdAt: "2026-03-04T12:00:00Z",
      });
    renderPanel();
    const { actor, dialog } = await open("Refund the payment of Mar 3, 2026", "Refund payment");
    await actor.selectOptions(within(dialog).getByLabelText("Reason"), "duplicate");
    await actor.click(within(dialog).getByRole("button", { name: "Refund" }));
    await within(dialog).findByText("Say why, for the audit log");
    expect(posted).toEqual([]);

    await actor.type(within(dialog).getByLabelText("Why"), "Charged twice");
    await actor.click(within(dialog).getByRole("button", { name: "Refund" }));
    await within(dialog).findByText("$20.00 refunded");
    expect(posted).toEqual([
      { path: REFUNDS, body: { orderId: "ord_1", amount: 2000, reason: "duplicate", comment: "Charged twice" } },
    ]);
  });
});
