import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../db/database";
import { waitFor } from "../../test/factories";
import { freePort } from "../../test/free-port";
import { startServerProcess, type ServerProcess } from "../../test/server-process";
import { postSignedWebhook } from "../../test/billing";
import { createTestDatabase, type TestDatabase } from "../../test/test-database";

/**
 * A server killed (SIGKILL) in the middle of applying a webhook delivery leaves no half state, and the delivery is
 * applied exactly once after a restart (docs/decisions/0013). The application is held inside its transaction from
 * outside, with no hook in the server: a second connection locks the table the application writes
 * (`billing_object`), and the server is killed once PostgreSQL shows its backend waiting for that lock.
 */

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString("hex")}`;
const organizationId = `org-${randomUUID()}`;

let database: TestDatabase;
let handle: DatabaseHandle | undefined;
let locker: pg.Client | undefined;
const servers: ServerProcess[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.dialect !== "postgres") {
    throw new Error(
      "This test holds a PostgreSQL table lock: run it with TEST_DATABASE_URL=postgres://… (npm run test:int does).",
    );
  }
  env = {
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    // A provider nobody answers: applying a subscription event does not call it.
    POLAR_ACCESS_TOKEN: "test-token",
    POLAR_SERVER_URL: `http://127.0.0.1:${await freePort()}`,
    POLAR_WEBHOOK_SECRET: WEBHOOK_SECRET,
    LOG_LEVEL: "info",
  };
  handle = openDatabase({ dialect: "postgres", url: database.url });
});

afterAll(async () => {
  await locker?.end().catch(() => undefined);
  await Promise.all(servers.map((server) => server.stop("SIGKILL")));
  await handle?.close();
  await database?.drop();
});

async function start(name: string): Promise<ServerProcess> {
  const server = await startServerProcess({ name, env });
  servers.push(server);
  return server;
}

const deliver = (server: ServerProcess, message: { id: string; body: string }) =>
  postSignedWebhook(server.url, WEBHOOK_SECRET, message);

const handledLines = (server: ServerProcess, id: string) =>
  server.output.filter((line) => line.includes('"message":"billing webhook handled"') && line.includes(`"id":"${id}"`));

test("a server killed while applying a delivery leaves it pending with none of its writes; restarted, it applies it once", async () => {
  const db = handle!.db;
  const first = await start("first");
  try {
    const now = new Date().toISOString();
    await db
      .insertInto("organization")
      .values({ id: organizationId, name: "Killed", slug: organizationId, createdAt: now, logo: null, metadata: null })
      .execute();
    const message = {
      id: randomUUID(),
      body: JSON.stringify({
        type: "subscription.updated",
        timestamp: now,
        data: {
          id: "sub-killed",
          created_at: now,
          modified_at: now,
          status: "active",
          customer: { external_id: organizationId },
        },
      }),
    };

    locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    await locker.query("begin");
    await locker.query("lock table billing_object in access exclusive mode");
    expect(await deliver(first, message)).toBe(202);

    // The application has marked the delivery in its transaction and now waits for the lock to write the object.
    const waiting = await waitFor(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { rows } = await locker!.query<{ pid: number; query: string }>(
          `select a.pid, a.query from pg_locks l join pg_class c on c.oid = l.relation join pg_stat_activity a on a.pid = l.pid
           where c.relname = 'billing_object' and not l.granted and a.datname = current_database()`,
        );
        return rows[0];
      },
      { timeoutMs: 20_000, what: "the application to wait for the lock on billing_object" },
    );
    expect(waiting.query).toMatch(/insert into "billing_object"/);

    expect(await first.stop("SIGKILL")).toBe("SIGKILL");
    await locker.query("commit");
    // The killed server's backend gets the lock, finds its client gone and rolls back: wait until no transaction is left.
    await waitFor(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const { rows } = await locker!.query<{ count: number }>(
          "select count(*)::int as count from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null",
        );
        return rows[0]?.count === 0;
      },
      { timeoutMs: 20_000, what: "the killed server's transaction to end" },
    );

    // No half state: the delivery is still pending, untried, and nothing of it was written.
    expect(
      await db
        .selectFrom("billing_webhook_event")
        .select(["status", "attempts", "applied_at"])
        .where("id", "=", message.id)
        .executeTakeFirst(),
    ).toEqual({
      status: "pending",
      attempts: 0,
      applied_at: null,
    });
    expect(
      await db.selectFrom("billing_object").select("id").where("organization_id", "=", organizationId).execute(),
    ).toEqual([]);

    // Restarted on the same database: once the killed server's lease on the applier has run out, applied once. The
    // lease's end is brought forward rather than waited for (WEBHOOK_LEASE_MS, a minute of the run).
    const restarted = await start("restarted");
    await db
      .updateTable("job_schedule")
      .set({ next_run_at: new Date(Date.now() - 1_000).toISOString() })
      .where("name", "=", "billing webhooks")
      .execute();
    await waitFor(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const row = await db
          .selectFrom("billing_webhook_event")
          .select("status")
          .where("id", "=", message.id)
          .executeTakeFirst();
        return row?.status === "applied";
      },
      { timeoutMs: 30_000, what: "the restarted server to apply the delivery" },
    );
    expect(
      await db
        .selectFrom("billing_object")
        .select(["kind", "id"])
        .where("organization_id", "=", organizationId)
        .execute(),
    ).toEqual([{ kind: "subscription", id: "sub-killed" }]);
    expect(handledLines(first, message.id)).toEqual([]);
    expect(handledLines(restarted, message.id)).toHaveLength(1);
  } catch (error) {
    if (error instanceof Error)
      error.message = `${error.message}\n\n${servers.map((server) => server.logs()).join("\n")}`;
    throw error;
  }
}, 180_000);
