import { getMigrations } from "better-auth/db/migration";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTestApp, type TestApp } from "../test/test-database";
import { migrateToLatest } from "./migrate";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe("checked-in migrations", () => {
  test(`leave nothing for better-auth's getMigrations to create or add`, async () => {
    const plan = await getMigrations(app.services.auth.options);
    expect(plan.toBeCreated.map((table) => table.table)).toEqual([]);
    expect(plan.toBeAdded.map((table) => ({ table: table.table, fields: Object.keys(table.fields) }))).toEqual([]);
    expect(plan.schemaProblems).toEqual([]);
    expect(plan.unsafeChanges).toEqual([]);
  });

  test("running them again is a no-op", async () => {
    expect(await migrateToLatest(app.services.database.db)).toEqual([]);
    const applied = await app.services.database.db
      .selectFrom("kysely_migration" as never)
      .select(sql<string>`name`.as("name"))
      .execute();
    expect(applied.map((row) => row.name).slice(0, 3)).toEqual(["0001-auth", "0002-mail", "0003-organizations"]);
  });

  test("one membership per user and organization is enforced by the database", async () => {
    const db = app.services.database.db;
    const now = new Date().toISOString();
    const isSqlite = app.database.dialect === "sqlite";
    await db
      .insertInto("user")
      .values({
        id: "u1",
        name: "U",
        email: "u1@example.test",
        emailVerified: isSqlite ? 1 : true,
        createdAt: now,
        updatedAt: now,
        image: null,
        username: null,
        displayUsername: null,
        role: "user",
        banned: null,
        banReason: null,
        banExpires: null,
      })
      .execute();
    await db
      .insertInto("organization")
      .values({ id: "o1", name: "O", slug: "o-1", createdAt: now, logo: null, metadata: null })
      .execute();
    await db
      .insertInto("member")
      .values({ id: "m1", organizationId: "o1", userId: "u1", role: "owner", createdAt: now })
      .execute();
    await expect(
      db
        .insertInto("member")
        .values({ id: "m2", organizationId: "o1", userId: "u1", role: "member", createdAt: now })
        .execute(),
    ).rejects.toThrow();
  });
});
