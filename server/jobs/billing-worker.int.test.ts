import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { createLogger } from "../logger";
import { createBilling, type BillingDeps } from "../modules/billing";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { startBillingWorker } from "./billing-worker";

/**
 * Usage records are claimed before they are sent (docs/decisions/0013): two billing workers on two connections to
 * one database, as two instances, never send the same record, even when both find it due at the same moment.
 */

let database: TestDatabase;
let first: DatabaseHandle;
let second: DatabaseHandle;
const organizationId = `org-${randomUUID()}`;

beforeAll(async () => {
  database = await createTestDatabase();
  const config =
    database.dialect === "sqlite"
      ? { dialect: "sqlite" as const, file: database.url }
      : { dialect: "postgres" as const, url: database.url };
  first = openDatabase(config);
  await migrateToLatest(first.db, { authSecret: null });
  second = openDatabase(config);
  const now = new Date().toISOString();
  await first.db
    .insertInto("organization")
    .values({ id: organizationId, name: "Usage", slug: organizationId, createdAt: now, logo: null, metadata: null })
    .execute();
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  await database?.drop();
});

test("two workers that find the same usage due send each record once", async () => {
  const now = new Date().toISOString();
  const keys = Array.from({ length: 40 }, (_, index) => `key-${index}`);
  await first.db
    .insertInto("billing_usage_event")
    .values(
      keys.map((key) => ({
        id: randomUUID(),
        organization_id: organizationId,
        idempotency_key: key,
        event_name: "api_request",
        quantity: 1,
        status: "pending" as const,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
      })),
    )
    .execute();

  // The provider's event ingestion, counting what each worker sends; slow enough for the two to overlap.
  const sent: string[] = [];
  const provider = {
    events: {
      ingest: async (request: { events: Array<{ external_id: string }> }) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        sent.push(...request.events.map((event) => event.external_id));
      },
    },
  } as unknown as BillingDeps["provider"];
  const logger = createLogger("silent");
  const workers = [first, second].map(({ db }) =>
    startBillingWorker({
      db,
      logger,
      pollMs: 60_000,
      billing: createBilling({ db, provider, baseUrl: "http://127.0.0.1", logger, nudge: () => undefined }),
    }),
  );
  try {
    await Promise.all(workers.map((worker) => worker.drain()));
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
  }

  expect([...sent].sort()).toEqual(keys.map((key) => `${organizationId}:${key}`).sort());
  const rows = await first.db
    .selectFrom("billing_usage_event")
    .select("status")
    .where("organization_id", "=", organizationId)
    .execute();
  expect(rows.map((row) => row.status)).toEqual(keys.map(() => "sent"));
});
