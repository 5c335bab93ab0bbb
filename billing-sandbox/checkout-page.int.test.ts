import { readFileSync } from "node:fs";
import { Window } from "happy-dom";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { productIdsByName, startHarness, webhooksAfter, type Harness } from "./test/harness";

/**
 * The hosted checkout page, run in a simulated browser (happy-dom) against the live sandbox: the page's own
 * script renders it, and its fetches go to the client checkout API and the page's sandbox control.
 */
let harness: Harness;
let productIds: Record<string, string>;
const script = readFileSync(new URL("./checkout-page/checkout.js", import.meta.url), "utf8");

beforeAll(async () => {
  harness = await startHarness();
  productIds = await productIdsByName(harness);
});
afterAll(() => harness.close());
afterEach(() => {
  expect(harness.problems.splice(0)).toEqual([]);
});

type Page = {
  text(id: string): string;
  element<T>(id: string): T;
  /** Types a card number and presses Pay, then waits for the page's requests to finish. */
  payWith(cardNumber: string): Promise<void>;
  click(id: string): Promise<void>;
  /** Where the page navigated with `location.assign`. */
  navigations: string[];
  close(): Promise<void>;
};

async function openPage(url: string): Promise<Page> {
  const window = new Window({ url, settings: { disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  window.document.write(await (await fetch(url)).text());
  const navigations: string[] = [];
  // Navigating would leave the page under test: the target is recorded instead.
  Object.assign(window.location, { assign: (target: string) => void navigations.push(target) });
  window.eval(script);
  await window.happyDOM.waitUntilComplete();
  const document = window.document;
  const element = <T>(id: string) => document.getElementById(id) as unknown as T;
  const click = async (id: string) => {
    element<{ click(): void }>(id).click();
    await window.happyDOM.waitUntilComplete();
  };
  return {
    text: (id) => document.getElementById(id)?.textContent ?? "",
    element,
    async payWith(cardNumber) {
      element<{ value: string }>("card-number").value = cardNumber;
      await click("pay");
    },
    click,
    navigations,
    close: () => window.happyDOM.close(),
  };
}

type Link = { hidden: boolean; href: string; tabIndex: number; tagName: string };

describe("the hosted checkout page", () => {
  it("says it is the development sandbox, links back to the app, and explains a declined card", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productIds["Pro monthly"] as string],
      customer_email: "page@declined.example",
      return_url: "https://app.example/billing",
    });
    const page = await openPage(checkout.url);
    try {
      expect(page.text("sandbox-notice")).toContain("Development sandbox.");
      const back = page.element<Link>("back");
      expect([back.tagName, back.hidden, back.href, back.tabIndex, page.text("back")]).toEqual([
        "A",
        false,
        "https://app.example/billing",
        0,
        "Cancel and go back",
      ]);
      await page.payWith("4000 0000 0000 0002");
      expect(page.text("error")).toBe("Your card was declined. Nothing was charged; try another card.");
      expect(page.element<Link>("back").hidden).toBe(false);
      expect((await harness.polar.checkouts.get(checkout.id)).status).toBe("failed");

      await page.payWith("4242 4242 4242 4242");
      expect(page.text("error")).toBe("");
      expect(page.navigations).toEqual([
        expect.stringMatching(new RegExp(`^${checkout.url}/confirmation\\?customer_session_token=polar_cst_`)),
      ]);
    } finally {
      await page.close();
    }
  });

  it("counts seats in words: 1 seat, 3 seats", async () => {
    for (const [seats, words] of [
      [1, "1 seat"],
      [3, "3 seats"],
    ] as const) {
      const checkout = await harness.polar.checkouts.create({ products: [productIds.Team as string], seats });
      const page = await openPage(checkout.url);
      try {
        expect(page.text("product-price")).toBe(`$15.00 per seat / month · ${words}`);
      } finally {
        await page.close();
      }
    }
  });

  it("shows no back link without a return_url", async () => {
    const checkout = await harness.polar.checkouts.create({ products: [productIds["Pro monthly"] as string] });
    const page = await openPage(checkout.url);
    try {
      expect(page.element<Link>("back").hidden).toBe(true);
      expect(page.text("product-name")).toBe("Pro monthly");
    } finally {
      await page.close();
    }
  });

  it("asks the customer to confirm a 4000 0025 0000 3155 payment, and its button completes it through the sandbox control", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productIds["Pro monthly"] as string],
      external_customer_id: "org_page_3ds",
      customer_email: "page@3ds.example",
      success_url: "https://app.example/done/{CHECKOUT_ID}",
    });
    const page = await openPage(checkout.url);
    try {
      expect(page.element<{ hidden: boolean }>("action").hidden).toBe(true);
      await page.payWith("4000 0025 0000 3155");
      expect(page.element<{ hidden: boolean }>("action").hidden).toBe(false);
      expect(page.text("action")).toContain("Your bank needs you to confirm this payment");
      expect(page.navigations).toEqual([]);
      const held = await harness.polar.checkouts.get(checkout.id);
      expect(held.status).toBe("confirmed");
      expect((await harness.polar.subscriptions.get(held.subscription_id as string)).status).toBe("incomplete");

      const mark = await harness.mark();
      await page.click("confirm-payment");
      expect(page.text("error")).toBe("");
      expect(page.navigations).toEqual([
        expect.stringMatching(
          new RegExp(`^https://app.example/done/${checkout.id}\\?customer_session_token=polar_cst_`),
        ),
      ]);
      expect((await webhooksAfter(harness, mark)).slice(0, 2)).toEqual(["subscription.updated", "subscription.active"]);
      expect((await harness.polar.subscriptions.get(held.subscription_id as string)).status).toBe("active");
    } finally {
      await page.close();
    }
  });

  it("offers the confirmation again when the page is reloaded before it was given, and its control needs the client secret only", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productIds["Pro yearly"] as string],
      customer_email: "reload@3ds.example",
    });
    await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_threeDSecureRequired",
    });
    const page = await openPage(checkout.url);
    try {
      expect(page.element<{ hidden: boolean }>("action").hidden).toBe(false);
      expect(page.text("status")).toBe("");
      // The page sends no organization token: the client secret in the path is the credential.
      const unknown = await fetch(`${harness.url}/sandbox/checkouts/client/polar_c_unknown/complete-payment`, {
        method: "POST",
      });
      expect(unknown.status).toBe(404);
      await page.click("confirm-payment");
      expect(page.navigations).toEqual([`${checkout.url}/confirmation`]);
      expect((await harness.polar.checkouts.get(checkout.id)).status).toBe("succeeded");
      const again = await fetch(`${harness.url}/sandbox/checkouts/client/${checkout.client_secret}/complete-payment`, {
        method: "POST",
      });
      expect(again.status).toBe(403);
    } finally {
      await page.close();
    }
  });
});
