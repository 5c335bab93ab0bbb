import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, uniqueSlug, waitFor, type UserInput } from "./test/factories";
import { startPrivatePostgres, type PrivatePostgres } from "./test/private-postgres";
import { startPrivateRedis, type PrivateRedis } from "./test/private-redis";
import { createClient, type RequestTarget, type TestClient } from "./test/request";
import { startServerProcess, type ServerProcess } from "./test/server-process";
import { httpTarget } from "./test/http-target";
import { signUpVerifiedUsers } from "./test/verified-users";

/** The answer to a request while the database is down (databaseUnavailable in server/http/errors.ts). */
const UNAVAILABLE = {
  code: "SERVICE_UNAVAILABLE",
  message: "The service is unavailable for a moment. Please try again shortly.",
};

/** An error body as compared here: its request id (every answer has its own) checked to be there, then left out. */
function withoutRequestId(body: unknown): unknown {
  if (!body || typeof body !== "object" || !("requestId" in body)) return body;
  const { requestId, ...rest } = body as { requestId: unknown };
  return typeof requestId === "string" && requestId.length > 0 ? rest : body;
}
/** The longest a request may take while the database is down: it fails fast, nothing waits on a dead server. */
const OUTAGE_ANSWER_BOUND_MS = 3_000;
/** The longest any request may take, before, during or after: past it a request counts as hung. */
const HANG_BOUND_MS = 15_000;
/** How long PostgreSQL stays down. */
const OUTAGE_MS = 4_000;
/** How long after PostgreSQL is back the app may take to answer writes again, by itself. */
const RECOVERY_BOUND_MS = 10_000;
const LOAD_WORKERS = 6;

/** A failed request's client waits a little before its next one, as a browser's retry would: steady load, not a spin. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 100));

type Call = {
  kind: string;
  startedAt: number;
  endedAt: number;
  status: number | "socket error";
  body: unknown;
  error?: string;
};

/** The calls that started after `since` and did not answer 200, one line each, for a failure's message. */
function summarize(calls: Call[], since: number): string {
  return calls
    .filter((c) => c.startedAt >= since && c.status !== 200)
    .map(
      (c) =>
        `+${c.startedAt - since} ms ${c.kind}: ${c.status} in ${c.endedAt - c.startedAt} ms ${c.error ?? JSON.stringify(c.body).slice(0, 160)}`,
    )
    .join("\n");
}

describe("PostgreSQL restarted under load", () => {
  let postgres: PrivatePostgres;
  let redis: PrivateRedis;
  let server: ServerProcess;
  let target: RequestTarget;
  let dataDir: string;
  const databaseUrl = () => postgres.urlFor("atrium");

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query("CREATE DATABASE atrium");
    await admin.end();
    redis = await startPrivateRedis();
    dataDir = mkdtempSync(path.join(tmpdir(), "atrium-fault-"));
    server = await startServerProcess({
      name: "atrium",
      env: { DATABASE_URL: databaseUrl(), DATA_DIR: dataDir, REDIS_URL: redis.url },
    });
    target = httpTarget(server, { timeoutMs: HANG_BOUND_MS });
  });

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
    await postgres?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // `fast`: the server ends every session and shuts down, as an administrator's or an orchestrator's restart does;
  // `immediate`: it exits at once, as a crash does (connections just close, recovery runs at the next start).
  test.each(["fast", "immediate"] as const)(
    "stopped (%s): requests during the outage fail fast with a 503, /healthz reports it, the pool recovers by itself, no acknowledged write is lost",
    async (mode) => {
      const steadyUsers = await signUpVerifiedUsers(target, databaseUrl(), LOAD_WORKERS);
      const calls: Call[] = [];
      const signedUp: string[] = [];
      const createdOrganizations: string[] = [];
      const health: Array<{ at: number; status: number | "socket error"; body: unknown }> = [];
      let running = true;
      /** The workers that have signed in and gone round once: the load is under way before PostgreSQL stops. */
      const warmedUp = new Set<UserInput>();

      async function call(
        kind: string,
        send: () => Promise<{ status: number; data: unknown }>,
      ): Promise<number | "socket error"> {
        const startedAt = Date.now();
        try {
          const response = await send();
          calls.push({ kind, startedAt, endedAt: Date.now(), status: response.status, body: response.data });
          if (response.status !== 200) await pause();
          return response.status;
        } catch (error) {
          calls.push({
            kind,
            startedAt,
            endedAt: Date.now(),
            status: "socket error",
            body: null,
            error: String(error),
          });
          await pause();
          return "socket error";
        }
      }

      // Each worker: a new user signs up; a verified user reads the session of the device it signed in on before
      // the outage, signs in on a new device and creates an organization there.
      async function worker(steady: UserInput): Promise<void> {
        const home = createClient(target);
        expect(
          (await home.post("/api/auth/sign-in/email", { email: steady.email, password: steady.password })).status,
        ).toBe(200);
        while (running) {
          const newcomer = buildUser({ label: "Newcomer" });
          if ((await call("sign-up", () => createClient(target).post("/api/auth/sign-up/email", newcomer))) === 200)
            signedUp.push(newcomer.email);
          await call("get-session", () => home.get("/api/auth/get-session"));
          const device: TestClient = createClient(target);
          if (
            (await call("sign-in", () =>
              device.post("/api/auth/sign-in/email", { email: steady.email, password: steady.password }),
            )) !== 200
          )
            continue;
          const slug = uniqueSlug("restart");
          if (
            (await call("create-organization", () =>
              device.post("/api/auth/organization/create", { name: "Restart", slug }),
            )) === 200
          ) {
            createdOrganizations.push(slug);
          }
          warmedUp.add(steady);
        }
      }

      async function watchHealth(): Promise<void> {
        while (running) {
          const at = Date.now();
          try {
            const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(HANG_BOUND_MS) });
            health.push({ at, status: response.status, body: await response.json() });
          } catch (error) {
            health.push({ at, status: "socket error", body: String(error) });
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }

      const load = [...steadyUsers.map(worker), watchHealth()];
      // Not a fixed wait: on a busy machine six sign-ins (scrypt) take longer than any, and would meet the outage.
      const isWarm = () => warmedUp.size === LOAD_WORKERS;
      /** More calls than workers started after `since` and answered, every kind among them. */
      const hasGoneRound = (since: number, kinds: string[]) => {
        const answered = calls.filter((c) => c.startedAt >= since);
        return answered.length > LOAD_WORKERS && kinds.every((kind) => answered.some((c) => c.kind === kind));
      };
      const stopLoad = async (error: unknown) => {
        // Stopped, or they would load the next test's server too.
        running = false;
        await Promise.allSettled(load);
        throw error;
      };
      await waitFor(isWarm, { timeoutMs: 90_000, what: "every worker to go round once" }).catch(stopLoad);
      // A fast stop writes a checkpoint first: the database may refuse from here on, before it is down.
      const stoppingAt = Date.now();
      await postgres.stop(mode);
      const downAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      // And on until each kind of request has been answered while it is down: a busy machine goes round slower.
      const whileDown = () => hasGoneRound(downAt, ["sign-up", "get-session", "sign-in"]);
      await waitFor(whileDown, { timeoutMs: 60_000, what: "calls during the outage" }).catch(stopLoad);
      const restartingAt = Date.now();
      await postgres.start();
      const upAt = Date.now();
      // Recovered: a sign-up started after PostgreSQL is back answers 200, without restarting Atrium.
      const context = () => `\n${summarize(calls, upAt)}\n${server.logs().slice(-4_000)}`;
      let recoveredAt: number;
      try {
        recoveredAt = await waitFor(
          () => calls.some((c) => c.kind === "sign-up" && c.startedAt > upAt && c.status === 200) && Date.now(),
          {
            timeoutMs: RECOVERY_BOUND_MS,
            what: "a sign-up to succeed after PostgreSQL is back",
          },
        ).catch((error: Error) => {
          throw new Error(`${error.message}${context()}`);
        });
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const kinds = ["sign-up", "sign-in", "get-session", "create-organization"];
        const afterward = () => hasGoneRound(recoveredAt + 1_000, kinds);
        await waitFor(afterward, { timeoutMs: 60_000, what: "calls after the recovery" });
      } finally {
        running = false;
        await Promise.all(load);
      }

      expect(server.hasExited(), context()).toBe(false);
      expect(recoveredAt - upAt).toBeLessThan(RECOVERY_BOUND_MS);
      // Nothing failed other than with the 503: no 500, no 401 for a valid session, no dropped connection, nothing hung.
      const unexpected = calls.filter(
        (c) =>
          !(
            c.status === 200 ||
            (c.status === 503 && JSON.stringify(withoutRequestId(c.body)) === JSON.stringify(UNAVAILABLE))
          ),
      );
      expect(unexpected, context()).toEqual([]);
      expect(Math.max(...calls.map((c) => c.endedAt - c.startedAt))).toBeLessThan(HANG_BOUND_MS);
      // The session signed in before the outage is read as signed in at every 200, never as signed out: while the
      // database is down the read is a 503 (a cached answer, or a guess, is not given).
      expect(
        calls.filter(
          (c) => c.kind === "get-session" && c.status === 200 && !(c.body as { user?: unknown } | null)?.user,
        ),
      ).toEqual([]);

      // Started and answered entirely while PostgreSQL was down: every one a 503, fast.
      const duringOutage = calls.filter((c) => c.startedAt >= downAt && c.endedAt <= restartingAt);
      expect(duringOutage.length).toBeGreaterThan(LOAD_WORKERS);
      expect(duringOutage.filter((c) => c.status !== 503)).toEqual([]);
      expect(duringOutage.filter((c) => c.endedAt - c.startedAt > OUTAGE_ANSWER_BOUND_MS)).toEqual([]);
      // Requests kept going on every path during the outage.
      expect(new Set(duringOutage.map((c) => c.kind))).toEqual(new Set(["sign-up", "get-session", "sign-in"]));

      // After the recovery (plus a second for the requests already under way), everything succeeds again.
      const afterRecovery = calls.filter((c) => c.startedAt > recoveredAt + 1_000);
      expect(afterRecovery.length).toBeGreaterThan(LOAD_WORKERS);
      expect(afterRecovery.filter((c) => c.status !== 200)).toEqual([]);
      expect(new Set(afterRecovery.map((c) => c.kind))).toEqual(
        new Set(["sign-up", "sign-in", "get-session", "create-organization"]),
      );

      // /healthz: 200 before, 503 (with its body, quickly) during, 200 again after.
      const healthBefore = health.filter((h) => h.at < stoppingAt - 500);
      expect(
        healthBefore.filter((h) => h.status !== 200),
        `stopping took ${downAt - stoppingAt} ms`,
      ).toEqual([]);
      const healthDuringOutage = health.filter((h) => h.at >= downAt && h.at < restartingAt - 1_500);
      expect(healthDuringOutage.length).toBeGreaterThan(3);
      expect(healthDuringOutage.map((h) => ({ ...h, body: withoutRequestId(h.body) }))).toEqual(
        healthDuringOutage.map((h) => ({
          at: h.at,
          status: 503,
          body: { status: "unavailable", code: "SERVICE_UNAVAILABLE", message: "The database does not answer" },
        })),
      );
      expect(health.filter((h) => h.at > recoveredAt).every((h) => h.status === 200)).toBe(true);
      expect(health.filter((h) => h.at > recoveredAt).length).toBeGreaterThan(3);

      // Nothing lost: every sign-up and organization acknowledged with 200, before, during or after, is in the database.
      expect(signedUp.length).toBeGreaterThan(LOAD_WORKERS);
      expect(createdOrganizations.length).toBeGreaterThan(LOAD_WORKERS);
      const users = await query<{ email: string }>(`SELECT email FROM "user" WHERE email = ANY($1)`, [signedUp]);
      expect(users.map((user) => user.email).sort()).toEqual([...signedUp].sort());
      const organizations = await query<{ slug: string }>(`SELECT slug FROM organization WHERE slug = ANY($1)`, [
        createdOrganizations,
      ]);
      expect(organizations.map((organization) => organization.slug).sort()).toEqual([...createdOrganizations].sort());
    },
  );
});
