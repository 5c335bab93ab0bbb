import { defineConfig, devices } from "@playwright/test";
import { WRITES_THE_DATABASE } from "./database";

/**
 * End-to-end tests: the real app (built web app + server on a fresh SQLite database) driven through
 * Debian's Chromium. `global-setup.ts` starts the servers once per run and publishes their addresses in
 * ATRIUM_E2E_BASE_URL and ATRIUM_E2E_WRITERS_BASE_URL; workers load this file after that, so `use.baseURL` sees them.
 */
export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: "../test-results/e2e",
  globalSetup: "./global-setup.ts",
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  // Two workers on this two-core machine: measured 132 s against 151 s for one worker (24 tests, busy
  // machine), with no flakiness. E2E_WORKERS overrides it.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // A timeout catches a hang, not a slow machine: on CI's two busy cores a 55 s test neared the old 60 s, and the
  // tests that set their own allow twice what they took there.
  timeout: 120_000,
  // Likewise for a page's answer: with two browsers, two workers and the server on two cores, a page took 9 s to
  // show what a sign-in answered in 1 s.
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: process.env.ATRIUM_E2E_BASE_URL,
    // A trace records every test and keeps the failures' (test-results/e2e/*/trace.zip). CI keeps only what it prints,
    // and recording was a third of the browser tests' CPU (10 tests: 382 s against 236–273 s without), so CI records
    // none: after a failure, e2e/run.mjs prints each failed page as it was and the server's warnings and errors.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        // The GPU process's work (software compositing here) as a thread of the browser process: the same 10 tests
        // took 186–200 s of CPU against 236–273 s with a GPU process of its own.
        "--in-process-gpu",
      ],
    },
  },
  projects: [
    { name: "chromium", grepInvert: new RegExp(WRITES_THE_DATABASE) },
    // Tests that write their server's database behind its back (e2e/database.ts) use a server of their own, one at a
    // time, alongside the others.
    {
      name: "database-writers",
      grep: new RegExp(WRITES_THE_DATABASE),
      use: { baseURL: process.env.ATRIUM_E2E_WRITERS_BASE_URL },
      workers: 1,
    },
  ],
});
