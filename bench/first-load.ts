// The first-load budget, measured by the browser test's own function (e2e/first-load.ts) in Debian's Chromium.
import { existsSync } from "node:fs";
import { chromium, devices } from "playwright-core";
import { measureSignInJavaScript, type FirstLoadJavaScript } from "../e2e/first-load";
import { nextClientAddress } from "./load";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The JavaScript /sign-in loads, or why it could not be measured. */
export async function measureFirstLoad(baseUrl: string): Promise<FirstLoadJavaScript | { notMeasured: string }> {
  if (!existsSync(CHROMIUM)) return { notMeasured: `${CHROMIUM} is missing (Debian: apt-get install chromium)` };
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    // The browser test's device and headers.
    const context = await browser.newContext({
      ...devices["Desktop Chrome"],
      baseURL: baseUrl,
      extraHTTPHeaders: { "x-forwarded-for": nextClientAddress(), "accept-encoding": "gzip, deflate, br" },
    });
    return await measureSignInJavaScript(await context.newPage());
  } finally {
    await browser.close();
  }
}
