import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type {
  BillingOverview,
  BillingSubscription,
  ChangePreview,
  CheckoutProgress,
  PlanCatalogue,
} from "../../../../common/billing.schemas";
import { createQueryClient } from "../../../lib/query-client";
import { CHECKOUT_POLL_INTERVAL_MS } from "../api/billing";
import { CHECKOUT_MESSAGES, formatMoney } from "../components/billing-format";
import { CheckoutReturnNotice, CHECKOUT_TIMEOUT_MS } from "../components/checkout-return";
import { PaymentBanner } from "../components/payment-banner";
import { BillingPage } from "./billing-page";

// The page reaches the server only through the typed Hono client, i.e. `fetch`: answer it per method and path.
type Answer = { status?: number; body: unknown };
type Handler = (request: { body: unknown; url: URL }) => Answer;
let routes: Record<string, Handler>;
let requests: Array<{ key: string; body: unknown }>;

beforeEach(() => {
  routes = {};
  requests = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), "http://localhost");
      const key = `${init?.method ?? "GET"} ${url.pathname}`;
      const body: unknown = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      requests.push({ key, body });
      const handler = routes[key];
      const answer = handler
        ? handler({ body, url })
        : { status: 404, body: { code: "NOT_FOUND", message: `no route ${key}` } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { "content-type": "application/json" },
      });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ORG = "org_1";
const BILLING = `/api/organizations/${ORG}/billing`;

const catalogue: PlanCatalogue = {
  plans: [
    {
      key: "free",
      name: "Free",
      description: "For trying things out.",
      includes: [],
      limits: { members: 5, teams: 3 },
      prices: [],
    },
    {
      key: "pro",
      name: "Pro",
      description: "More API requests and priority support.",
      includes: ["Priority support", "10,000 API requests a month"],
      limits: { members: null, teams: null },
      prices: [
        {
          productId: "prod_pro_m",
          interval: "month",
          amount: 2000,
          currency: "usd",
          perSeat: false,
          minSeats: null,
          maxSeats: null,
          meteredUnitAmount: "0.1",
        },
        {
          productId: "prod_pro_y",
          interval: "year",
          amount: 20_000,
          currency: "usd",
          perSeat: false,
          minSeats: null,
          maxSeats: null,
          meteredUnitAmount: "0.1",
        },
      ],
    },
    {
      key: "team",
      name: "Team",
      description: "Priced per seat.",
      includes: ["Priority support"],
      limits: { members: null, teams: null },
      prices: [
        {
          productId: "prod_team",
          interval: "month",
          amount: 1500,
          currency: "usd",
          perSeat: true,
          minSeats: 1,
          maxSeats: 50,
          meteredUnitAmount: null,
        },
      ],
    },
  ],
};

const freeOverview: BillingOverview = {
  plan: { key: "free", name: "Free", productId: null },
  subscription: null,
  entitlements: { features: [], limits: { members: 5, teams: 3 } },
  seats: { used: 2, limit: 5 },
  meters: [],
  orders: [],
  paymentMethod: null,
  canManage: true,
  syncedAt: null,
  lastCheckout: null,
};

const proSubscription: BillingSubscription = {
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

const proOverview: BillingOverview = {
  ...freeOverview,
  plan: { key: "pro", name: "Pro", productId: "prod_pro_m" },
  subscription: proSubscription,
  entitlements: { features: ["priority_support"], limits: { members: null, teams: null } },
  seats: { used: 2, limit: null },
  meters: [
    { meterId: "m_1", name: "API requests", consumed: 2500, credited: 10_000, remaining: 7500, overageEstimate: 0 },
  ],
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
  paymentMethod: { brand: "visa", last4: "4242" },
};

function renderPage(search = "") {
  const notify = { success: vi.fn(), error: vi.fn() };
  const rootRoute = createRootRoute();
  const billingRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/organizations/$organizationId/settings/billing",
    validateSearch: z.object({ checkout: z.string().optional() }),
    component: function Billing() {
      return (
        <BillingPage
          organizationId={billingRoute.useParams().organizationId}
          checkout={billingRoute.useSearch().checkout}
        />
      );
    },
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([billingRoute]),
    history: createMemoryHistory({ initialEntries: [`/organizations/${ORG}/settings/billing${search}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient(notify)}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { notify, router };
}

describe("BillingPage", () => {
  it("confirms a paid checkout: polls until completed, names the new plan and drops ?checkout=", async () => {
    let overview = freeOverview;
    let polls = 0;
    routes[`GET ${BILLING}`] = () => ({ body: overview });
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });
    routes[`GET ${BILLING}/checkouts/ck_1`] = () => {
      polls += 1;
      // The provider's webhook lands between the first and the second poll.
      if (polls === 1)
        return { body: { id: "ck_1", state: "confirming", productId: "prod_pro_m" } satisfies CheckoutProgress };
      overview = proOverview;
      return { body: { id: "ck_1", state: "completed", productId: "prod_pro_m" } satisfies CheckoutProgress };
    };

    const { notify, router } = renderPage("?checkout=ck_1");
    const status = await screen.findByText(CHECKOUT_MESSAGES.confirming);
    expect(status.closest("[role=status]")?.getAttribute("aria-live")).toBe("polite");

    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("You are now on Pro"), { timeout: 4000 });
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(screen.queryByText(CHECKOUT_MESSAGES.confirming)).toBeNull();
    await screen.findByText("Visa ending in 4242");
    screen.getByText("Renews on Apr 3, 2026 for $20.00 / month.", { exact: false });
    expect(polls).toBe(2);
  });

  it("says a card was declined when the buyer comes back without paying", async () => {
    routes[`GET ${BILLING}`] = () => ({
      body: { ...freeOverview, lastCheckout: { id: "ck_2", state: "declined", productId: "prod_pro_m" } },
    });
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });

    const user = userEvent.setup();
    const { router } = renderPage("?checkout=returned");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(CHECKOUT_MESSAGES.declined);
    await user.click(within(alert).getByRole("button", { name: "Dismiss" }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(screen.queryByText(CHECKOUT_MESSAGES.declined)).toBeNull();
  });

  it("starts a checkout with a discount code and sends the browser to the provider", async () => {
    routes[`GET ${BILLING}`] = () => ({ body: freeOverview });
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });
    routes[`POST ${BILLING}/checkout`] = ({ body }) =>
      (body as { discountCode?: string }).discountCode === "LAUNCH20"
        ? { body: { url: "https://pay.example.test/checkout/ck_9", redirect: true } }
        : {
            status: 400,
            body: {
              code: "VALIDATION_ERROR",
              message: "That discount code is not valid.",
              details: { fieldErrors: { discountCode: ["That discount code is not valid."] } },
            },
          };
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);

    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Upgrade to Pro" }));
    const dialog = await screen.findByRole("dialog", { name: "Subscribe to Pro" });
    await user.type(within(dialog).getByLabelText("Discount code (optional)"), "NOPE");
    await user.click(within(dialog).getByRole("button", { name: "Continue to payment" }));
    await within(dialog).findByText("That discount code is not valid. Check it, or leave the field empty.");
    expect(assign).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByLabelText("Discount code (optional)"));
    await user.type(within(dialog).getByLabelText("Discount code (optional)"), "LAUNCH20");
    await user.click(within(dialog).getByRole("button", { name: "Continue to payment" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://pay.example.test/checkout/ck_9"));
    expect(requests.filter((request) => request.key === `POST ${BILLING}/checkout`).at(-1)?.body).toEqual({
      productId: "prod_pro_m",
      discountCode: "LAUNCH20",
    });
  });

  it("shows what a plan change charges now and on the next invoice, and applies it on confirmation", async () => {
    let overview = proOverview;
    routes[`GET ${BILLING}`] = () => ({ body: overview });
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });
    routes[`GET ${BILLING}/change-preview`] = ({ url }) => ({
      body: {
        productId: url.searchParams.get("productId") ?? "",
        seats: null,
        currency: "usd",
        dueNow: 16_774,
        nextInvoice: { amount: 20_000, date: "2027-03-04T12:00:00Z" },
        discount: { name: "LAUNCH20", carriesOver: false },
        lines: [
          { label: "Pro yearly", amount: 20_000, on: "now" },
          { label: "Unused time on Pro monthly", amount: -3226, on: "now" },
          { label: "Pro yearly", amount: 20_000, on: "nextInvoice" },
        ],
      } satisfies ChangePreview,
    });
    routes[`POST ${BILLING}/subscription`] = () => {
      overview = { ...proOverview, plan: { key: "pro", name: "Pro", productId: "prod_pro_y" } };
      return { body: overview };
    };

    const user = userEvent.setup();
    const { notify } = renderPage();
    await user.click(await screen.findByRole("radio", { name: "Yearly" }));
    await user.click(screen.getByRole("button", { name: "Switch to yearly billing" }));
    const dialog = await screen.findByRole("dialog", { name: "Switch to Pro (yearly)" });
    within(dialog).getByText("From Pro (monthly) to Pro (yearly). The change applies as soon as you confirm.");
    await within(dialog).findByText(`You'll be charged ${formatMoney(16_774, "usd")} now.`);
    within(dialog).getByText(formatMoney(-3226, "usd"));
    within(dialog).getByText(`Your next invoice, on Mar 4, 2027, will be ${formatMoney(20_000, "usd")}.`);
    within(dialog).getByText('Your discount "LAUNCH20" does not apply to it.');

    await user.click(within(dialog).getByRole("button", { name: "Confirm change" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("You are now on Pro"));
    expect(requests.find((request) => request.key === `POST ${BILLING}/subscription`)?.body).toEqual({
      productId: "prod_pro_y",
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // The "Switch to yearly billing" button left with the old plan: focus goes to the plan card, not the page's top.
    expect(screen.queryByRole("button", { name: "Switch to yearly billing" })).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Current plan" })));
  });

  it("keeps focus on the seats button while the seats change and after", async () => {
    const teamOverview: BillingOverview = {
      ...proOverview,
      plan: { key: "team", name: "Team", productId: "prod_team" },
      subscription: { ...proSubscription, productId: "prod_team", amount: 3000, seats: 2 },
      seats: { used: 2, limit: 2 },
    };
    let overview = teamOverview;
    routes[`GET ${BILLING}`] = () => ({ body: overview });
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });
    routes[`POST ${BILLING}/subscription`] = ({ body }) => {
      const seats = (body as { seats: number }).seats;
      overview = {
        ...teamOverview,
        subscription: { ...teamOverview.subscription!, seats, amount: 1500 * seats },
        seats: { used: 2, limit: seats },
      };
      return { body: overview };
    };

    routes[`GET ${BILLING}/change-preview`] = ({ url }) => ({
      body: {
        productId: "prod_team",
        seats: Number(url.searchParams.get("seats")),
        currency: "usd",
        dueNow: 2903,
        nextInvoice: { amount: 6000, date: "2026-04-03T12:00:00Z" },
        discount: null,
        lines: [],
      } satisfies ChangePreview,
    });

    const user = userEvent.setup();
    const { notify } = renderPage();
    const field = await screen.findByLabelText("Number of seats");
    await user.clear(field);
    await user.type(field, "4");
    await user.tab();
    const button = screen.getByRole("button", { name: "Update seats" });
    expect(document.activeElement).toBe(button);
    await user.keyboard("{Enter}");
    // Nothing is charged before the preview is confirmed.
    const dialog = await screen.findByRole("dialog", { name: "Change to 4 seats" });
    await within(dialog).findByText(`You'll be charged ${formatMoney(2903, "usd")} now.`);
    within(dialog).getByText(`Your next invoice, on Apr 3, 2026, will be ${formatMoney(6000, "usd")}.`);
    expect(requests.some((request) => request.key === `POST ${BILLING}/subscription`)).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Confirm seats" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Your plan now has 4 seats"));
    expect(requests.find((request) => request.key === `POST ${BILLING}/subscription`)?.body).toEqual({ seats: 4 });
    // The same button, unavailable until the count changes again, still has focus.
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Update seats" }).getAttribute("aria-disabled")).toBe("true"),
    );
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Update seats" }));
    expect((screen.getByLabelText("Number of seats") as HTMLInputElement).value).toBe("4");
  });

  it("asks for a reason before canceling at the end of the period", async () => {
    routes[`GET ${BILLING}`] = () => ({ body: proOverview });
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });
    routes[`POST ${BILLING}/subscription`] = () => ({
      body: {
        ...proOverview,
        subscription: { ...proSubscription, cancelAtPeriodEnd: true, endsAt: "2026-04-03T12:00:00Z" },
      },
    });

    const user = userEvent.setup();
    const { notify } = renderPage();
    await user.click(await screen.findByRole("button", { name: "Cancel subscription" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel Pro?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    await within(dialog).findByText("Choose a reason");
    expect(requests.some((request) => request.key === `POST ${BILLING}/subscription`)).toBe(false);

    await user.selectOptions(within(dialog).getByLabelText("Why are you canceling?"), "too_expensive");
    await user.click(within(dialog).getByRole("button", { name: "Cancel subscription" }));
    await waitFor(() =>
      expect(notify.success).toHaveBeenCalledWith("Subscription canceled. Pro stays active until Apr 3, 2026."),
    );
    expect(requests.find((request) => request.key === `POST ${BILLING}/subscription`)?.body).toEqual({
      cancelAtPeriodEnd: true,
      cancellationReason: "too_expensive",
    });
    await screen.findByRole("button", { name: "Resume subscription" });
    screen.getByText("Cancels on Apr 3, 2026");
  });

  it("shows members the plan, usage and payments without any action", async () => {
    routes[`GET ${BILLING}`] = () => ({ body: { ...proOverview, canManage: false } });
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });

    renderPage();
    await screen.findByText("Only owners and admins can change billing.");
    screen.getByText("Pro", { selector: "p" });
    expect(screen.getByRole("progressbar", { name: "API requests" }).getAttribute("aria-valuenow")).toBe("25");
    screen.getByRole("table", { name: "Payments" });
    expect(screen.queryAllByRole("button")).toEqual([]);
  });

  it("says when billing cannot load, and loads it again on request", async () => {
    let fail = true;
    routes[`GET ${BILLING}`] = () =>
      fail
        ? { status: 503, body: { code: "SERVICE_UNAVAILABLE", message: "The billing provider is not answering" } }
        : { body: freeOverview };
    routes["GET /api/billing/plans"] = () => ({ body: catalogue });

    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole("alert", {}, { timeout: 8000 });
    expect(alert.textContent).toContain("The payment provider is not answering right now.");
    fail = false;
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    await screen.findByRole("heading", { name: "Plans" });
  }, 15_000);

  it("says plainly when the deployment has no billing, at once, asking once and offering no upgrade", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const notConfigured = () => ({
      status: 404,
      body: { code: "BILLING_NOT_CONFIGURED", message: "Billing is not configured on this deployment." },
    });
    routes[`GET ${BILLING}`] = notConfigured;
    routes["GET /api/billing/plans"] = notConfigured;

    renderPage();
    const notice = await screen.findByText("Billing is not set up");
    expect(notice.closest("[role=status]")?.textContent).toBe(
      "Billing is not set upBilling is not set up on this deployment: there are no plans to buy, and no plan limits " +
        "on members or teams.",
    );
    // Well past the retry policy's backoff: neither query was asked again, and nothing else appeared.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(requests.map((request) => request.key).sort()).toEqual(["GET /api/billing/plans", `GET ${BILLING}`]);
    expect(document.querySelector("[aria-busy=true]")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("heading", { name: "Plans" })).toBeNull();
    expect(screen.queryByText(/upgrade/i)).toBeNull();
    expect(screen.queryAllByRole("button")).toEqual([]);
    expect(screen.queryAllByRole("link")).toEqual([]);
  });
});

describe("CheckoutReturnNotice", () => {
  it("stops asking after the time limit, says so, and checks again on request", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    routes[`GET ${BILLING}/checkouts/ck_3`] = () => ({
      body: { id: "ck_3", state: "confirming", productId: "prod_pro_m" },
    });
    const onDone = vi.fn();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(
      <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
        <CheckoutReturnNotice organizationId={ORG} checkout="ck_3" lastCheckout={null} onDone={onDone} />
      </QueryClientProvider>,
    );
    await screen.findByText(CHECKOUT_MESSAGES.confirming);
    await vi.advanceTimersByTimeAsync(CHECKOUT_TIMEOUT_MS);
    // The last poll's answer is rendered after the timers ran: on a loaded machine, a moment later.
    await screen.findByText(CHECKOUT_MESSAGES.slow);
    const asked = requests.length;
    expect(asked).toBeGreaterThan(1);
    // Another minute of polls' worth: not one more request.
    await vi.advanceTimersByTimeAsync(CHECKOUT_TIMEOUT_MS);
    expect(requests.length).toBe(asked);

    await user.click(screen.getByRole("button", { name: "Check again" }));
    await screen.findByText(CHECKOUT_MESSAGES.confirming);
    await vi.advanceTimersByTimeAsync(CHECKOUT_POLL_INTERVAL_MS);
    expect(requests.length).toBeGreaterThan(asked);
    expect(onDone).not.toHaveBeenCalled();
  });
});

describe("PaymentBanner", () => {
  function renderBanner(at = "/") {
    const rootRoute = createRootRoute({
      component: () => <PaymentBanner organizationId={ORG} organizationName="Rocket Club" />,
    });
    const billingRoute = createRoute({
      getParentRoute: () => rootRoute,
      path: "/organizations/$organizationId/settings/billing",
    });
    const router = createRouter({
      routeTree: rootRoute.addChildren([billingRoute]),
      history: createMemoryHistory({ initialEntries: [at] }),
    });
    render(
      <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
  }

  it("tells owners and admins that a payment failed, with the way to billing", async () => {
    routes[`GET ${BILLING}`] = () => ({
      body: { ...proOverview, subscription: { ...proSubscription, status: "past_due" } },
    });
    renderBanner();
    const banner = await screen.findByRole("status");
    expect(banner.textContent).toContain("Payment for Rocket Club failed. Update your payment method to keep Pro.");
    expect(within(banner).getByRole("link", { name: "Go to billing" }).getAttribute("href")).toBe(
      `/organizations/${ORG}/settings/billing`,
    );
  });

  it("on the billing tab itself, opens the provider's portal instead of linking to the page it is on", async () => {
    routes[`GET ${BILLING}`] = () => ({
      body: { ...proOverview, subscription: { ...proSubscription, status: "past_due" } },
    });
    routes[`POST ${BILLING}/portal`] = () => ({ body: { url: "https://pay.example.test/portal/abc" } });
    const assign = vi.spyOn(window.location, "assign").mockImplementation(() => undefined);
    renderBanner(`/organizations/${ORG}/settings/billing`);
    const banner = await screen.findByRole("status");
    expect(within(banner).queryByRole("link", { name: "Go to billing" })).toBeNull();
    await userEvent.setup().click(within(banner).getByRole("button", { name: "Update payment method" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://pay.example.test/portal/abc"));
  });

  it("stays hidden for members, and while payments are fine", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    routes[`GET ${BILLING}`] = () => ({
      body: { ...proOverview, canManage: false, subscription: { ...proSubscription, status: "unpaid" } },
    });
    renderBanner();
    await waitFor(() => expect(requests.some((request) => request.key === `GET ${BILLING}`)).toBe(true));
    // Long enough for the answer to arrive and render.
    await vi.advanceTimersByTimeAsync(1000);
    expect(screen.queryByRole("status")).toBeNull();
  });
});
