import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { measureSignInJavaScript, SIGN_IN_JS_BUDGET } from "./first-load";

test.describe("first load", () => {
  test.use({ extraHTTPHeaders: { "accept-encoding": "gzip, deflate, br" } });

  /** Loads /sign-in and lists the HTML, CSS and JS responses it got, with their Content-Encoding. */
  async function loadSignIn(page: Page) {
    const responses: Array<{ url: string; type: string; encoding: string | undefined }> = [];
    page.on("response", (response) => {
      const type = response.request().resourceType();
      if (["document", "script", "stylesheet"].includes(type))
        responses.push({ url: response.url(), type, encoding: response.headers()["content-encoding"] });
    });
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    return responses;
  }

  test("/sign-in gets every HTML, CSS and JS file compressed", async ({ page }) => {
    const responses = await loadSignIn(page);
    expect(responses.filter((response) => response.type === "script").length).toBeGreaterThan(0);
    expect(responses.filter((response) => response.type === "stylesheet").length).toBeGreaterThan(0);
    const uncompressed = responses.filter((response) => response.encoding !== "br" && response.encoding !== "gzip");
    expect(uncompressed, "responses sent without br or gzip").toEqual([]);
  });

  test("the JavaScript /sign-in loads stays within its budget (first-load.ts) gzipped", async ({ page }) => {
    const { total, scripts } = await measureSignInJavaScript(page);
    expect(scripts.length).toBeGreaterThan(0);
    const largest = scripts[0]!;
    expect(
      total,
      `/sign-in loads ${(total / 1024).toFixed(1)} KB of gzipped JavaScript in ${scripts.length} files; the largest is ${largest.path} (${(largest.bytes / 1024).toFixed(1)} KB)`,
    ).toBeLessThanOrEqual(SIGN_IN_JS_BUDGET);
  });

  test("a script is answered with the encoding asked for, and Vary: Accept-Encoding", async ({ page, request }) => {
    await page.goto("/sign-in");
    const script = await page.locator("script[type=module]").first().getAttribute("src");
    for (const [accept, encoding] of [
      ["br, gzip", "br"],
      ["gzip", "gzip"],
    ] as const) {
      const answer = await request.get(script!, { headers: { "accept-encoding": accept } });
      expect(answer.status()).toBe(200);
      expect(answer.headers()["content-encoding"]).toBe(encoding);
      expect(answer.headers()["vary"]).toContain("Accept-Encoding");
      expect(answer.headers()["content-type"]).toMatch(/^text\/javascript/);
    }
    const plain = await request.get(script!, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers()["content-encoding"]).toBeUndefined();
  });

  test("shows the app's header and a loading state before the session answers, and the form once it does", async ({
    page,
  }) => {
    let answerSession: () => void = () => {};
    const sessionHeld = new Promise<void>((resolve) => (answerSession = resolve));
    await page.route("**/api/auth/get-session", async (route) => {
      await sessionHeld;
      await route.continue();
    });
    await page.goto("/sign-in", { waitUntil: "commit" });

    await expect(page.getByRole("link", { name: "Atrium home" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText(/Loading/);
    // Nothing that depends on the session yet: no sign-in form, no sign-in link.
    await expect(page.getByRole("heading", { name: "Sign in" })).toHaveCount(0);
    await expect(page.getByLabel("E-mail or username")).toHaveCount(0);

    answerSession();
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(page.locator("#app-shell")).toHaveCount(0);
  });
});
