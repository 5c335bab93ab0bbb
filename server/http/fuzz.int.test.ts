import { existsSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import {
  endpoints,
  type Family,
  RUNS_PER_ENDPOINT,
  SANDBOX_FILE,
  SANDBOX_PREFIX,
  server,
  serverLog,
  UNCOMPARED_COLUMNS,
  UNCOMPARED_TABLES,
} from "../test/fuzz/surface";
import { setUpFixtures } from "../test/fuzz/fixtures";
import { appTables, sandboxStore, sandboxTables } from "../test/fuzz/snapshots";
import { edgeCases, type FuzzRequest, requestArb } from "../test/fuzz/requests";
import { answers, exchange, seedFor } from "../test/fuzz/exchange";

/**
 * Property-based fuzzing of the whole HTTP surface. Every endpoint — derived from better-auth's instance, the
 * app's Hono routes and the billing sandbox's routes, never listed by hand — gets generated hostile bodies,
 * query strings, path parameters and headers, from an anonymous caller, an organization owner and a platform
 * admin. Two properties must hold: no answer is a 5xx, and a refused (4xx) request leaves every table as it was.
 *
 * FUZZ_SEED and FUZZ_RUNS explore other inputs locally; the defaults are what CI runs, so a failure replays.
 */

// The harness (the app, its surface, fixtures, snapshots, generators and the exchange) is in server/test/fuzz/.

beforeAll(async () => {
  // The billing sandbox reports its unhandled errors on the console: they belong in the reproduction, not in the test output.
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    serverLog.push({
      level: "console.error",
      message: args.map((arg) => (arg instanceof Error ? `${arg.stack}` : String(arg))).join(" "),
    });
  });
  await setUpFixtures();
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  sandboxStore.close();
  await server.close();
});

describe("the fuzzed surface is derived, not listed", () => {
  test("better-auth's endpoints, the app's own routes and the billing sandbox's routes are all there", () => {
    const byFamily = (family: Family) => endpoints.filter((endpoint) => endpoint.family === family);
    expect(byFamily("better-auth").length).toBeGreaterThan(50);
    expect(byFamily("sandbox").length).toBeGreaterThan(40);
    const patterns = endpoints.map((endpoint) => endpoint.pattern);
    for (const expected of [
      "/healthz",
      "/api/meta",
      "/api/organizations/:organizationId/members",
      "/api/organizations/:organizationId/teams",
      "/api/invitations/:invitationId",
      "/api/dev/mail",
      "/api/auth/sign-up/email",
      "/api/auth/admin/ban-user",
      `${SANDBOX_PREFIX}/v1/checkouts`,
      `${SANDBOX_PREFIX}/sandbox/clock/advance`,
    ]) {
      expect(patterns).toContain(expected);
    }
  });

  test("both databases' tables are compared, except the few that refused requests legitimately change", () => {
    expect(appTables).toEqual(
      expect.arrayContaining([
        "user",
        "session",
        "account",
        "verification",
        "organization",
        "member",
        "invitation",
        "team",
        "mail_outbox",
      ]),
    );
    expect(appTables).toEqual(expect.arrayContaining(Object.keys(UNCOMPARED_TABLES)));
    expect(appTables).toEqual(expect.arrayContaining(Object.keys(UNCOMPARED_COLUMNS)));
    expect(existsSync(SANDBOX_FILE)).toBe(true);
    expect(sandboxTables).toContain("records");
  });
});

describe.each(["better-auth", "app", "sandbox"] as const)("%s endpoints under hostile input", (family) => {
  test.each(
    endpoints.filter((endpoint) => endpoint.family === family).map((endpoint) => [endpoint.label, endpoint] as const),
  )(
    "%s: never a 5xx, and a refusal changes nothing",
    async (_label, endpoint) => {
      const examples = edgeCases(endpoint).map((request) => [request] as [FuzzRequest]);
      await fc.assert(
        fc.asyncProperty(requestArb(endpoint), (request) => exchange(endpoint, request)),
        {
          seed: seedFor(endpoint),
          // fast-check counts the examples among the runs: the random runs come on top of them.
          numRuns: examples.length + RUNS_PER_ENDPOINT,
          examples,
          // Shrinking a failure is stopped after a while: the counterexample reached by then is reported with its seed.
          plugins: [fc.interruptAfterTimeLimit(40_000)],
        },
      );
    },
    60_000,
  );
});

describe("the fuzzer reaches the handlers", () => {
  // A fuzzer whose requests all bounce off the origin check, the content-type check or the rate limiter would pass
  // while proving nothing: most answers must come from further in.
  test("every family has answers that succeeded, and better-auth's are mostly not gatekeeping refusals", () => {
    for (const family of ["better-auth", "app", "sandbox"] as const) {
      const statuses = answers.filter((answer) => answer.family === family).map((answer) => answer.status);
      expect(
        statuses.some((status) => status < 300),
        family,
      ).toBe(true);
      expect(
        statuses.some((status) => status >= 400 && status < 500),
        family,
      ).toBe(true);
    }
    for (const persona of ["anonymous", "owner", "admin"] as const) {
      expect(
        answers.some((answer) => answer.family === "better-auth" && answer.persona === persona && answer.status < 300),
        persona,
      ).toBe(true);
    }
    const authAnswers = answers.filter((answer) => answer.family === "better-auth");
    const gatekeeping = authAnswers.filter((answer) => [401, 403, 415, 429].includes(answer.status));
    expect(gatekeeping.length / authAnswers.length).toBeLessThan(0.5);
    expect(answers.filter((answer) => answer.status === 429).length / answers.length).toBeLessThan(0.01);
  });
});
