import { existsSync } from "node:fs";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { describe, expect, test } from "vitest";
import { answers } from "../test/fuzz/exchange";
import { appTables, describeChanges, sandboxTables, snapshot } from "../test/fuzz/snapshots";
import { fuzzFamily } from "../test/fuzz/suite";
import {
  endpoints,
  type Family,
  SANDBOX_FILE,
  SANDBOX_PREFIX,
  UNCOMPARED_COLUMNS,
  server,
  UNCOMPARED_TABLES,
} from "../test/fuzz/surface";

/**
 * Property-based fuzzing of the whole HTTP surface. Every endpoint — derived from better-auth's instance, the
 * app's Hono routes and the billing sandbox's routes, never listed by hand — gets generated hostile bodies,
 * query strings, path parameters and headers, from an anonymous caller, an organization owner and a platform
 * admin. Two properties must hold: no answer is a 5xx, and a refused (4xx) request leaves every table as it was.
 * This file fuzzes better-auth's endpoints and checks the surface; fuzz-app and fuzz-sandbox fuzz the other two
 * families, each with an app of its own, so the three run in parallel.
 *
 * FUZZ_SEED and FUZZ_RUNS explore other inputs locally; the defaults are what CI runs, so a failure replays (20
 * random runs per endpoint on SQLite, 7 on PostgreSQL: scripts/test-int.mjs).
 */

// The harness (the app, its surface, fixtures, snapshots, generators and the exchange) is in server/test/fuzz/.

fuzzFamily("better-auth");

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

describe("a snapshot is read again after any write", () => {
  test("to the app's tables and to the sandbox's file, from another connection", async () => {
    const before = await snapshot();
    expect(await snapshot()).toBe(before);
    const key = "fuzz-probe";
    await sql`insert into job_schedule (name, next_run_at) values (${key}, ${new Date().toISOString()})`.execute(
      server.db,
    );
    const afterApp = await snapshot();
    expect(describeChanges(before, afterApp).join("\n")).toContain(key);
    const sandbox = new SQLite(SANDBOX_FILE);
    try {
      sandbox.prepare("insert into settings (key, value) values (?, ?)").run(key, "1");
      expect(describeChanges(afterApp, await snapshot()).join("\n")).toContain(key);
      sandbox.prepare("delete from settings where key = ?").run(key);
    } finally {
      sandbox.close();
    }
    await sql`delete from job_schedule where name = ${key}`.execute(server.db);
  });
});

describe("the fuzzer reaches better-auth's handlers", () => {
  test("as every persona, and its answers are mostly not gatekeeping refusals", () => {
    const authAnswers = answers.filter((answer) => answer.family === "better-auth");
    for (const persona of ["anonymous", "owner", "admin"] as const) {
      expect(
        authAnswers.some((answer) => answer.persona === persona && answer.status < 300),
        persona,
      ).toBe(true);
    }
    const gatekeeping = authAnswers.filter((answer) => [401, 403, 415, 429].includes(answer.status));
    expect(gatekeeping.length / authAnswers.length).toBeLessThan(0.5);
  });
});
