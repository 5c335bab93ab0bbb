import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CheckoutProgress } from "../../../../common/billing.schemas";
import { createQueryClient } from "../../../lib/query-client";
import { CHECKOUT_MESSAGES } from "./billing-format";
import { CheckoutReturnNotice } from "./checkout-return";

const PROGRESS_PATH = "/api/organizations/org_1/billing/checkouts/ck_1";
const storedOpen: CheckoutProgress = { id: "ck_1", state: "open", productId: "prod_pro" };

/** What the provider says of the checkout now, through the app's progress endpoint. */
let providerState: CheckoutProgress["state"];
let progressReads: number;

beforeEach(() => {
  progressReads = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
      if (url.pathname !== PROGRESS_PATH) return new Response("{}", { status: 404 });
      progressReads += 1;
      return new Response(JSON.stringify({ ...storedOpen, state: providerState }), {
        headers: { "content-type": "application/json" },
      });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderReturn(lastCheckout: CheckoutProgress | null) {
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <CheckoutReturnNotice organizationId="org_1" checkout="returned" lastCheckout={lastCheckout} onDone={onDone} />
    </QueryClientProvider>,
  );
  return onDone;
}

describe("coming back from the hosted checkout without paying", () => {
  it("asks the provider when the stored checkout is open: its decline may not have reached the app", async () => {
    providerState = "declined";
    renderReturn(storedOpen);
    await screen.findByText(CHECKOUT_MESSAGES.declined);
    expect(progressReads).toBe(1);
  });

  it("says nothing changed when the provider's checkout is open too, and stops asking", async () => {
    providerState = "open";
    renderReturn(storedOpen);
    await screen.findByText(CHECKOUT_MESSAGES.notCompleted);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(progressReads).toBe(1);
  });

  it("says nothing changed without asking when the organization has no recent checkout", () => {
    renderReturn(null);
    screen.getByText(CHECKOUT_MESSAGES.notCompleted);
    expect(progressReads).toBe(0);
  });
});
