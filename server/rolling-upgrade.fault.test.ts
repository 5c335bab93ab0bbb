import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildUser, uniqueSlug, waitFor, type UserInput } from "./test/factories";
import { httpTarget } from "./test/http-target";
import { NEXT_VERSION_COLUMN, NEXT_VERSION_MIGRATION } from "./test/next-version";
import { createClient, randomIp, type TestClient, type TestResponse } from "./test/request";
import { startRoundRobinProxy, type RoundRobinProxy } from "./test/round-robin-proxy";
import { startServerProcess, type ServerProcess } from "./test/server-process";
import { createTestDatabase, isPostgresRun, type TestDatabase } from "./test/test-database";
import { signUpVerifiedUsers } from "./test/verified-users";

/**
 * A rolling upgrade under load, with nothing dropped: two instances (A and B) on one PostgreSQL database and Redis
 * behind a round-robin load balancer that checks /readyz (server/test/round-robin-proxy.ts), and clients that read
 * their session, sign in, fail a sign-in and invite to and cancel invitations in their organization, all along. A is
 * replaced by the next version (server/test/next-version-server.ts: the same build with one more, additive migration,
 * applied by the replacement as it starts, while A and B, the previous version, serve on the changed schema), then A
 * gets SIGTERM, drains and exits; then the same for B. Every request gets its normal answer: none fails, none is
 * refused, none is a 5xx.
 */

/** The production default: longer than a few of the balancer's 200 ms checks, on a starved machine too. */
const SHUTDOWN_DELAY_MS = 5_000;
/** Generous: the test's requests are short; a shutdown that takes long is reported by the exit code. */
const SHUTDOWN_TIMEOUT_MS = 60_000;
const LOAD_WORKERS = 3;
/**
 * The longest any request may take: past it a request counts as hung. Generous: with a replacement starting on two
 * cores shared with a dozen busy processes, a sign-in nowhere near a stopping instance took over 15 s.
 */
const HANG_BOUND_MS = 60_000;
/** How long the load may take to reach an instance with every kind of request: generous, for a starved machine. */
const ANSWERED_BOUND_MS = 60_000;
/** Between one worker's rounds, so the load stays steady without starving the instances' start on two cores. */
const ROUND_PAUSE_MS = 25;

const KINDS = ["get-session", "sign-in", "wrong-password", "invite", "cancel-invitation"] as const;
type Kind = (typeof KINDS)[number];

type Call = {
  kind: Kind;
  startedAt: number;
  endedAt: number;
  status: number | "socket error";
  /** Whether it was the normal answer: the status, and what the body must say. */
  normal: boolean;
  /** The instance that answered (the balancer's X-Upstream). */
  upstream: string | null;
  /** What came back, when it was not the normal answer. */
  body?: unknown;
};

let database: TestDatabase;
let proxy: RoundRobinProxy;
const instances: ServerProcess[] = [];
const authSecret = randomBytes(32).toString("base64url");

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * How long an instance may take to start and answer /healthz: a wait, not a claim about speed. Through tsx on two
 * cores shared with a dozen busy processes a start took over 80 s.
 */
const START_BOUND_MS = 180_000;

/** An instance of the deployment: every one has the balancer's address as its public origin, and the same secret. */
async function startInstance(name: string, version: "current" | "next"): Promise<ServerProcess> {
  try {
    const instance = await startServerProcess({
      name,
      ...(version === "next" ? { entry: "server/test/next-version-server.ts" } : {}),
      timeoutMs: START_BOUND_MS,
      env: {
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
        BASE_URL: proxy.url,
        AUTH_SECRET: authSecret,
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
        LOG_LEVEL: "info",
      },
    });
    instances.push(instance);
    return instance;
  } catch (error) {
    // A migration waiting for a table lock would leave the instance silent: say what waits on what.
    const waiting = await query(
      `SELECT pid, state, wait_event_type, wait_event, left(query, 200) AS query FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    ).catch((failure: unknown) => String(failure));
    if (error instanceof Error) error.message = `${error.message}\n\nwaiting for a lock: ${JSON.stringify(waiting)}`;
    throw error;
  }
}

const logs = () => instances.map((instance) => instance.logs().slice(-3_000)).join("\n");

beforeAll(async () => {
  database = await createTestDatabase();
  proxy = await startRoundRobinProxy({ checkEveryMs: 200 });
});

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop("SIGKILL")));
  await proxy?.close();
  await database?.drop();
});

/** Four server starts, each up to START_BOUND_MS on a busy machine, and two drains: past the project's default. */
const TEST_BOUND_MS = 4 * START_BOUND_MS;

test.runIf(isPostgresRun())(
  "rolling upgrade under load to a version with an additive migration: every request answered as normal, none dropped",
  async () => {
    const startedAt = Date.now();
    const [A, B] = await Promise.all([startInstance("A", "current"), startInstance("B", "current")]);
    const firstStartMs = Date.now() - startedAt;
    for (const instance of [A, B]) proxy.add(instance);
    await waitFor(() => proxy.isInRotation("A") && proxy.isInRotation("B"), {
      timeoutMs: 10_000,
      what: "A and B to be in the balancer's rotation",
    });
    const target = httpTarget({ url: proxy.url }, { timeoutMs: HANG_BOUND_MS });

    // Each worker: a verified user, signed in at home, owning an organization.
    const users = await signUpVerifiedUsers(target, database.url, LOAD_WORKERS);
    const homes = await Promise.all(users.map((user) => signedInHome(user)));

    const calls: Call[] = [];
    let running = true;
    /** Sends one request and records it; `isNormal` says whether the answer is this kind's normal one. */
    async function call(
      kind: Kind,
      send: () => Promise<TestResponse>,
      isNormal: (response: TestResponse) => boolean,
    ): Promise<TestResponse | undefined> {
      const startedAt = Date.now();
      try {
        const response = await send();
        const normal = isNormal(response);
        const upstream = response.headers.get("x-upstream");
        const status = response.status;
        calls.push({
          kind,
          startedAt,
          endedAt: Date.now(),
          status,
          normal,
          upstream,
          ...(normal ? {} : { body: response.data }),
        });
        return response;
      } catch (error) {
        calls.push({
          kind,
          startedAt,
          endedAt: Date.now(),
          status: "socket error",
          normal: false,
          upstream: null,
          body: String(error),
        });
        return undefined;
      }
    }
    const ok = (response: TestResponse) => response.status === 200;
    async function worker({ user, home, organizationId }: Home): Promise<void> {
      while (running) {
        await call(
          "get-session",
          () => home.get("/api/auth/get-session", { ip: randomIp() }),
          (response) => response.status === 200 && response.data?.user?.email === user.email,
        );
        await call(
          "sign-in",
          () => createClient(target).post("/api/auth/sign-in/email", { email: user.email, password: user.password }),
          (response) => response.status === 200 && response.data?.user?.email === user.email,
        );
        await call(
          "wrong-password",
          () => createClient(target).post("/api/auth/sign-in/email", { email: buildUser().email, password: "not-it" }),
          (response) =>
            response.status === 401 &&
            response.data?.code === "INVALID_EMAIL_OR_PASSWORD" &&
            response.data?.message === "Invalid email or password",
        );
        const email = buildUser({ label: "Invited" }).email;
        const invited = await call(
          "invite",
          () =>
            home.post(
              "/api/auth/organization/invite-member",
              { email, role: "member", organizationId },
              { ip: randomIp() },
            ),
          (response) => ok(response) && response.data?.email === email && response.data?.status === "pending",
        );
        if (invited?.status === 200) {
          const invitationId = invited.data.id as string;
          await call(
            "cancel-invitation",
            () => home.post("/api/auth/organization/cancel-invitation", { invitationId }, { ip: randomIp() }),
            (response) => ok(response) && response.data?.status === "canceled",
          );
        }
        await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
      }
    }
    /** Whether `instance` has answered every kind of request started after `since`. */
    const hasAnsweredEveryKind = (instance: string, since = 0) =>
      KINDS.every((kind) => calls.some((c) => c.upstream === instance && c.kind === kind && c.startedAt >= since));

    const load = homes.map(worker);
    const timings: Record<string, number> = {};
    /** Per old instance, requests it answered after its SIGTERM: those it was still serving, or in flight. */
    const answeredAfterSigterm: Record<string, number> = {};
    try {
      await waitFor(() => hasAnsweredEveryKind("A") && hasAnsweredEveryKind("B"), {
        timeoutMs: ANSWERED_BOUND_MS,
        what: "A and B to answer every kind of request",
      });

      // A is replaced; its replacement applies the next version's migration while A and B, the previous version, serve.
      const { migratedAt } = await replace(A, "A2", timings);
      expect(await query(`SELECT name FROM kysely_migration WHERE name = $1`, [NEXT_VERSION_MIGRATION])).toHaveLength(
        1,
      );
      await waitFor(() => hasAnsweredEveryKind("B", migratedAt) && hasAnsweredEveryKind("A2"), {
        timeoutMs: ANSWERED_BOUND_MS,
        what: "B (the previous version, on the migrated schema) and A2 to answer every kind of request",
      });

      // Then B, whose replacement finds the migration applied.
      await replace(B, "B2", timings);
      await waitFor(() => hasAnsweredEveryKind("B2"), {
        timeoutMs: ANSWERED_BOUND_MS,
        what: "B2 to answer every kind",
      });
    } catch (error) {
      if (error instanceof Error) error.message = `${error.message}\n\n${logs()}`;
      throw error;
    } finally {
      running = false;
      await Promise.all(load);
    }

    // Printed: what the run did.
    const byKind = Object.fromEntries(
      KINDS.map((kind) => {
        const statuses: Record<string, number> = {};
        for (const c of calls.filter((c) => c.kind === kind)) statuses[c.status] = (statuses[c.status] ?? 0) + 1;
        return [kind, statuses];
      }),
    );
    process.stdout.write(
      `rolling upgrade: ${JSON.stringify(
        {
          requests: calls.length,
          byKind,
          answeredBy: Object.fromEntries(proxy.answered),
          retriedAfterRefusal: proxy.retriedAfterRefusal,
          failedAtTheBalancer: proxy.failed.length,
          slowestMs: Math.max(...calls.map((c) => c.endedAt - c.startedAt)),
          answeredAfterSigterm,
          timingsMs: timings,
          firstStartMs,
          totalMs: Date.now() - startedAt,
        },
        null,
        2,
      )}\n`,
    );

    // None failed, none refused, none a 5xx: each its normal answer.
    const unexpected = calls.filter((c) => !c.normal);
    expect(unexpected, logs()).toEqual([]);
    expect(proxy.failed).toEqual([]);
    expect(calls.filter((c) => c.endedAt - c.startedAt > HANG_BOUND_MS)).toEqual([]);
    for (const kind of KINDS) expect(calls.filter((c) => c.kind === kind).length).toBeGreaterThan(LOAD_WORKERS);
    // Each instance, old and new, answered; the old ones went out of the rotation before their listener closed.
    for (const name of ["A", "B", "A2", "B2"]) expect(proxy.answered.get(name) ?? 0).toBeGreaterThan(0);
    expect(timings.A_outOfRotation).toBeLessThan(SHUTDOWN_DELAY_MS);
    expect(timings.B_outOfRotation).toBeLessThan(SHUTDOWN_DELAY_MS);

    // The next version's migration was applied once, and the column is there.
    expect(await query(`SELECT name FROM kysely_migration WHERE name = $1`, [NEXT_VERSION_MIGRATION])).toHaveLength(1);
    expect(
      await query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'invitation' AND column_name = $1`,
        [NEXT_VERSION_COLUMN],
      ),
    ).toHaveLength(1);

    type Home = { user: UserInput; home: TestClient; organizationId: string };
    async function signedInHome(user: UserInput): Promise<Home> {
      const home = createClient(target);
      const signedIn = await home.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
      expect(signedIn.status, JSON.stringify(signedIn.data)).toBe(200);
      const created = await home.post("/api/auth/organization/create", {
        name: "Rolling",
        slug: uniqueSlug("rolling"),
      });
      expect(created.status, JSON.stringify(created.data)).toBe(200);
      return { user, home, organizationId: (created.data as { id: string }).id };
    }

    /**
     * Replaces `old` as an orchestrator's rolling update does (one more instance at a time, none less): the
     * replacement, the next version, is started and joins the balancer's rotation once its /readyz answers 200; then
     * `old` gets SIGTERM, must leave the rotation (its /readyz 503) before its listener closes, and exit 0.
     */
    async function replace(
      old: ServerProcess,
      name: string,
      times: Record<string, number>,
    ): Promise<{ replacement: ServerProcess; migratedAt: number }> {
      const startingAt = Date.now();
      const replacement = await startInstance(name, "next");
      // It applies the pending migrations before it answers at all.
      const migratedAt = Date.now();
      times[`${name}_started`] = migratedAt - startingAt;
      proxy.add(replacement);
      await waitFor(() => proxy.isInRotation(name), { timeoutMs: 10_000, what: `${name} to join the rotation` });
      const signalledAt = Date.now();
      old.child.kill("SIGTERM");
      await waitFor(() => !proxy.isInRotation(old.name), {
        timeoutMs: SHUTDOWN_DELAY_MS + 10_000,
        what: `${old.name} to leave the rotation`,
      });
      times[`${old.name}_outOfRotation`] = Date.now() - signalledAt;
      expect(await old.exited, old.logs()).toBe(0);
      times[`${old.name}_exited`] = Date.now() - signalledAt;
      proxy.remove(old.name);
      answeredAfterSigterm[old.name] = calls.filter((c) => c.upstream === old.name && c.endedAt > signalledAt).length;
      return { replacement, migratedAt };
    }
  },
  TEST_BOUND_MS,
);
