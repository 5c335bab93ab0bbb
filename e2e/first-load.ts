// The first-load measurement of /sign-in, in one place: the browser test holds the budget with it and `npm run bench`
// reports it, so both always measure the same thing.
import { gzipSync } from "node:zlib";
import type { Page, Response } from "playwright-core";

/** ADR 0011's budget: the JavaScript /sign-in loads, gzipped, in bytes. */
export const SIGN_IN_JS_BUDGET = 120 * 1024;

export type ScriptSize = { path: string; bytes: number };
/** `scripts` largest first; `total` their sum, in gzipped bytes. */
export type FirstLoadJavaScript = { total: number; scripts: ScriptSize[] };

/**
 * Opens /sign-in in `page` (its context's baseURL), waits for the form and for the network to go quiet, and sizes
 * every script the page got as a browser that accepts only gzip would get it: the plain body, gzipped at level 9.
 */
export async function measureSignInJavaScript(page: Page): Promise<FirstLoadJavaScript> {
  const urls: string[] = [];
  const collect = (response: Response) => {
    if (response.request().resourceType() === "script") urls.push(response.url());
  };
  page.on("response", collect);
  try {
    await page.goto("/sign-in");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.waitForLoadState("networkidle");
  } finally {
    page.off("response", collect);
  }
  const scripts = await Promise.all(
    urls.map(async (url) => {
      const answer = await page.request.get(url, { headers: { "accept-encoding": "identity" } });
      if (answer.status() !== 200) throw new Error(`${url} answered ${answer.status()}`);
      return { path: new URL(url).pathname, bytes: gzipSync(await answer.body(), { level: 9 }).length };
    }),
  );
  scripts.sort((a, b) => b.bytes - a.bytes);
  return { total: scripts.reduce((sum, script) => sum + script.bytes, 0), scripts };
}
