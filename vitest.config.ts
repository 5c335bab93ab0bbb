import { defineConfig } from "vitest/config";

// Three sizes of test (see docs/ARCHITECTURE.md): unit (no I/O) and integration (real database) run here;
// end-to-end specs run in Chromium through e2e/run.mjs. The web app's tests run in their own project, in a
// simulated DOM (happy-dom), so components can render.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["{server,common,billing-sandbox,scripts}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        test: {
          name: "web",
          include: ["web/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["web/test/setup.ts"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["{server,billing-sandbox}/**/*.int.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
        },
      },
    ],
  },
});
