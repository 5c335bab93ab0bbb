import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type DatabaseHandle } from "./db/database";
import { migrations } from "./db/migrate";
import { waitFor } from "./test/factories";
import { freePort } from "./test/free-port";
import { startServerProcess, type ServerProcess } from "./test/server-process";
import { postSignedWebhook } from "./test/billing";
import { createTestDatabase, type TestDatabase } from "./test/test-database";

/**
 * Several real instances of the server (server/main.ts in child processes) on one database, each running the
 * background jobs, as several machines behind a load balancer would (docs/decisions/0013): migrations applied once
 * when they start at the same moment, each outbox mail sent once, each webhook delivery applied once and in
 * order, and the scheduled billing reconciliation run once per period across them.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString("hex")}`;
/** The reconciliation's period in the instances under test (BILLING_RECONCILE_SECONDS). */
const RECONCILE_SECONDS = 2;

/** The one line every instance writes when the web app is not built (the tests run the API alone). */
const isExpectedWarning = (line: string) => line.includes("the web app is not built");

/** The test's own connection to the database the instances share, to arrange and check rows. */
function databaseOf(database: TestDatabase): DatabaseHandle {
  return openDatabase(
    database.dialect === "sqlite"
      ? { dialect: "sqlite", file: database.url }
      : { dialect: "postgres", url: database.url },
  );
}

/** Runs `body` and, when it fails, adds the processes' output to the failure. */
async function withLogs(servers: Array<ServerProcess | undefined>, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof Error)
      error.message = `${error.message}\n\n${servers.map((server) => server?.logs() ?? "").join("\n")}`;
    throw error;
  }
}

describe("migrations when three processes start at the same moment on a fresh database", () => {
  test("one applies them, the others wait and start: all healthy, each migration recorded once, no error logged", async () => {
    const database = await createTestDatabase();
    const servers: ServerProcess[] = [];
    let db: DatabaseHandle | undefined;
    try {
      const env = {
        DATA_DIR: database.dataDir,
        DATABASE_URL: database.url,
        AUTH_SECRET: randomBytes(32).toString("base64url"),
      };
      const started = await Promise.allSettled(
        ["1", "2", "3"].map((name) => startServerProcess({ name, env, timeoutMs: 90_000 })),
      );
      for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
      const failures = started.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
      expect(failures).toEqual([]);
      await withLogs(servers, async () => {
        db = databaseOf(database);
        const recorded = await sql<{
          name: string;
          count: number | string;
        }>`select name, count(*) as count from kysely_migration group by name order by name`.execute(db.db);
        expect(recorded.rows.map((row) => ({ name: row.name, count: Number(row.count) }))).toEqual(
          Object.keys(migrations).map((name) => ({ name, count: 1 })),
        );
        for (const server of servers) expect(server.output.filter((line) => !isExpectedWarning(line))).toEqual([]);
      });
    } finally {
      await db?.close();
      await Promise.all(servers.map((server) => server.stop()));
      await database.drop();
    }
  }, 180_000);
});

describe("two instances running the background jobs on one database and one Redis", () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let db: DatabaseHandle["db"];
  let A: ServerProcess | undefined;
  let B: ServerProcess | undefined;
  let startedAt: number;
  const organizationId = `org-${randomUUID()}`;

  const logs = (body: () => Promise<void>) => withLogs([A, B], body);
  /** Both instances' log lines, parsed. */
  const logLines = () =>
    [A!, B!].flatMap((server) =>
      server.output.flatMap((line) => {
        try {
          return [
            {
              server: server.name,
              ...(JSON.parse(line) as { time: string; level: string; message: string; id?: string }),
            },
          ];
        } catch {
          return [];
        }
      }),
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    // A provider nobody answers: nothing in these scenarios calls it (subscription events are applied from their payload).
    const provider = `http://127.0.0.1:${await freePort()}`;
    const env = {
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      REDIS_URL,
      POLAR_ACCESS_TOKEN: "test-token",
      POLAR_SERVER_URL: provider,
      POLAR_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BILLING_RECONCILE_SECONDS: String(RECONCILE_SECONDS),
      LOG_LEVEL: "info",
    };
    startedAt = Date.now();
    A = await startServerProcess({ name: "A", env });
    B = await startServerProcess({ name: "B", env });
    handle = databaseOf(database);
    db = handle.db;
    const now = new Date().toISOString();
    await db
      .insertInto("organization")
      .values({ id: organizationId, name: "Jobs", slug: organizationId, createdAt: now, logo: null, metadata: null })
      .execute();
  }, 120_000);

  afterAll(async () => {
    await handle?.close();
    await Promise.all([A?.stop(), B?.stop()]);
    await database?.drop();
  });

  test(
    "each outbox mail is sent exactly once",
    () =>
      logs(async () => {
        const subjects = Array.from({ length: 40 }, (_, index) => `Exactly once ${index} ${randomUUID()}`);
        const now = new Date().toISOString();
        await db
          .insertInto("mail_outbox")
          .values(
            subjects.map((subject) => ({
              id: randomUUID(),
              to_address: "someone@example.test",
              subject,
              text_body: "text",
              html_body: "<p>html</p>",
              status: "pending" as const,
              attempts: 0,
              next_attempt_at: now,
              created_at: now,
              sent_at: null,
            })),
          )
          .execute();
        await waitFor(
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 200));
            const left = await db
              .selectFrom("mail_outbox")
              .select("id")
              .where("subject", "in", subjects)
              .where("status", "<>", "sent")
              .execute();
            return left.length === 0;
          },
          { timeoutMs: 30_000, what: "every mail to be sent" },
        );
        const delivered = await db
          .selectFrom("dev_mailbox")
          .select((eb) => ["subject", eb.fn.countAll<number | string>().as("count")])
          .where("subject", "in", subjects)
          .groupBy("subject")
          .execute();
        expect(Object.fromEntries(delivered.map((row) => [row.subject, Number(row.count)]))).toEqual(
          Object.fromEntries(subjects.map((subject) => [subject, 1])),
        );
      }),
    60_000,
  );

  /** A signed `subscription.updated` delivery about the organization, as the provider sends it. */
  function delivery(subscriptionId: string) {
    const at = new Date().toISOString();
    const body = JSON.stringify({
      type: "subscription.updated",
      timestamp: at,
      data: {
        id: subscriptionId,
        created_at: at,
        modified_at: at,
        status: "active",
        customer: { external_id: organizationId },
      },
    });
    return { id: randomUUID(), body };
  }

  const post = (server: ServerProcess, message: { id: string; body: string }) =>
    postSignedWebhook(server.url, WEBHOOK_SECRET, message);

  /** The same delivery to both instances at once (the provider retrying while the first is in flight): stored once. */
  async function postToBoth(message: { id: string; body: string }): Promise<void> {
    const statuses = await Promise.all([post(A!, message), post(B!, message)]);
    expect(statuses.sort(), `answers to delivery ${message.id}`).toEqual([200, 202]);
  }

  test(
    "each webhook delivery is applied exactly once, and deliveries that arrived one after another in that order",
    () =>
      logs(async () => {
        // One after the other, each delivered to both instances at once.
        const sequence = Array.from({ length: 10 }, (_, index) => delivery(`sub-sequence-${index}`));
        for (const message of sequence) await postToBoth(message);
        // Then many at once.
        const burst = Array.from({ length: 30 }, (_, index) => delivery(`sub-burst-${index}`));
        await Promise.all(burst.map(postToBoth));

        const ids = [...sequence, ...burst].map((message) => message.id);
        const handledLines = () => logLines().filter((line) => line.message === "billing webhook handled");
        await waitFor(
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 200));
            const left = await db
              .selectFrom("billing_webhook_event")
              .select("id")
              .where("id", "in", ids)
              .where("status", "<>", "applied")
              .execute();
            // The log line follows the commit through a pipe: on a busy machine it reaches the test later.
            const logged = new Set(handledLines().map((line) => line.id));
            return left.length === 0 && ids.every((id) => logged.has(id));
          },
          { timeoutMs: 30_000, what: "every delivery to be applied and its line logged" },
        );
        // Applied once each: one "handled" line per delivery across both instances' logs, and its effect stored.
        const handled = handledLines();
        expect(Object.fromEntries(ids.map((id) => [id, handled.filter((line) => line.id === id).length]))).toEqual(
          Object.fromEntries(ids.map((id) => [id, 1])),
        );
        const objects = await db
          .selectFrom("billing_object")
          .select("id")
          .where("organization_id", "=", organizationId)
          .orderBy("id")
          .execute();
        expect(objects.map((row) => row.id)).toEqual(
          [...sequence, ...burst].map((message) => JSON.parse(message.body).data.id as string).sort(),
        );
        // In order: a delivery stored after another was applied no earlier.
        const rows = await db
          .selectFrom("billing_webhook_event")
          .select(["id", "applied_at"])
          .where(
            "id",
            "in",
            sequence.map((message) => message.id),
          )
          .execute();
        const appliedAt = new Map(rows.map((row) => [row.id, new Date(row.applied_at!).getTime()]));
        const times = sequence.map((message) => appliedAt.get(message.id)!);
        expect(times).toEqual([...times].sort((a, b) => a - b));
      }),
    90_000,
  );

  test(
    `the scheduled reconciliation runs once per period (${RECONCILE_SECONDS} s) across both instances, not once per instance`,
    () =>
      logs(async () => {
        // Both instances poll every 2 s: give them several periods.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 16_000 - Date.now())));
        const elapsed = Date.now() - startedAt;
        const runs = logLines()
          .filter((line) => line.message === "billing reconciliation finished")
          .map((line) => ({ server: line.server, at: new Date(line.time).getTime() }))
          .sort((a, b) => a.at - b.at);
        const periodMs = RECONCILE_SECONDS * 1_000;
        expect(runs.length).toBeGreaterThanOrEqual(3);
        expect(runs.length).toBeLessThanOrEqual(Math.floor(elapsed / periodMs) + 1);
        // A run's end is at least a period after its claim: two runs' ends are most of a period apart.
        const gaps = runs.slice(1).map((run, index) => run.at - runs[index]!.at);
        expect(gaps.filter((gap) => gap < periodMs / 2)).toEqual([]);
      }),
    60_000,
  );
});
