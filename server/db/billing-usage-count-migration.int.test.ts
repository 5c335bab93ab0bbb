import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestApp, type TestApp } from "../test/test-database";

/** Migration 0012 on both databases: one running count per organization, meter and period, past 32 bits. */

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => app?.close());

test("one count per organization, meter and period, beyond 2^31, deleted with its organization", async () => {
  const db = app.services.database.db;
  const now = new Date().toISOString();
  await db
    .insertInto("organization")
    .values({ id: "o1", name: "O", slug: "o-1", createdAt: now, logo: null, metadata: null })
    .execute();
  const count = { organization_id: "o1", meter_id: "m1", period_start: "2026-11-01T00:00:00.000Z" };
  await db
    .insertInto("billing_usage_count")
    .values({ ...count, quantity: 3_000_000_000 })
    .execute();
  await expect(
    db
      .insertInto("billing_usage_count")
      .values({ ...count, quantity: 1 })
      .execute(),
  ).rejects.toThrow();
  await db
    .insertInto("billing_usage_count")
    .values({ ...count, period_start: "2026-12-01T00:00:00.000Z", quantity: 1 })
    .execute();
  const rows = await db.selectFrom("billing_usage_count").select(["period_start", "quantity"]).execute();
  expect(rows.map((row) => [row.period_start, Number(row.quantity)]).sort()).toEqual([
    ["2026-11-01T00:00:00.000Z", 3_000_000_000],
    ["2026-12-01T00:00:00.000Z", 1],
  ]);
  await db.deleteFrom("organization").where("id", "=", "o1").execute();
  expect(await db.selectFrom("billing_usage_count").selectAll().execute()).toEqual([]);
});
