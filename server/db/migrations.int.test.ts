import { getMigrations } from "better-auth/db/migration";
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addMember, createOrganizationWithOwner, createVerifiedUser } from "../test/factories";
import { createTestApp, isPostgresRun, type TestApp } from "../test/test-database";
import { migrateToLatest, migrations } from "./migrate";

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
    expect(await migrateToLatest(app.services.database.db, { authSecret: app.config.authSecret })).toEqual([]);
    const applied = await app.services.database.db
      .selectFrom("kysely_migration" as never)
      .select(sql<string>`name`.as("name"))
      .orderBy(sql`name`)
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

  test("0025 types earlier actors and lets an invitation have no inviter; its down step undoes both", async () => {
    const db = app.services.database.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const now = new Date().toISOString();
    const isSqlite = app.database.dialect === "sqlite";
    expect((await migrator.migrateTo("0022-domain-join")).error).toBeUndefined();
    await db
      .insertInto("user")
      .values({
        id: "u25",
        name: "U",
        email: "u25@example.test",
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
      .values({ id: "o25", name: "O", slug: "o-25", createdAt: now, logo: null, metadata: null })
      .execute();
    const key = {
      organization_id: "o25",
      name: "k",
      prefix: "atr_k",
      scopes: "[]",
      created_by: "u25",
      created_at: now,
    };
    await db
      .insertInto("api_key")
      .values({ ...key, id: "k25", key_hash: "h25" })
      .execute();
    const invitation = { organizationId: "o25", role: "member", teamId: null, status: "pending" as const };
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    await db
      .insertInto("invitation")
      .values({ ...invitation, id: "i25", email: "a@example.test", expiresAt, createdAt: now, inviterId: "u25" })
      .execute();
    const entry = { created_at: now, action: "team.created", organization_id: "o25" };
    for (const [id, actorId, label] of [
      ["e1", "u25", "u25@example.test"],
      ["e2", null, "command line"],
      ["e3", null, "okta"],
      ["e4", "k25", "API key k"],
    ] as const) {
      await sql`insert into audit_event (id, created_at, action, actor_id, actor_label, organization_id)
        values (${id}, ${entry.created_at}, ${entry.action}, ${actorId}, ${label}, ${entry.organization_id})`.execute(
        db,
      );
    }

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const types = await db.selectFrom("audit_event").select(["id", "actor_type"]).where("organization_id", "=", "o25");
    expect(await types.orderBy("id").execute()).toEqual([
      { id: "e1", actor_type: "user" },
      { id: "e2", actor_type: "command_line" },
      { id: "e3", actor_type: "scim_token" },
      { id: "e4", actor_type: "api_key" },
    ]);
    await db
      .insertInto("invitation")
      .values({ ...invitation, id: "i26", email: "b@example.test", expiresAt, createdAt: now, inviterId: null })
      .execute();
    // The rebuilt table keeps its rows and the one pending invitation per address and organization.
    const duplicate = { ...invitation, id: "i27", email: "b@example.test", expiresAt, createdAt: now, inviterId: null };
    await expect(db.insertInto("invitation").values(duplicate).execute()).rejects.toThrow();
    const kept = await db.selectFrom("invitation").select(["id", "inviterId"]).where("organizationId", "=", "o25");
    expect(await kept.orderBy("id").execute()).toEqual([
      { id: "i25", inviterId: "u25" },
      { id: "i26", inviterId: null },
    ]);

    // Down again: the invitation without an inviter goes, and an inviter is required again.
    expect((await migrator.migrateTo("0022-domain-join")).error).toBeUndefined();
    expect(await kept.orderBy("id").execute()).toEqual([{ id: "i25", inviterId: "u25" }]);
    await expect(
      db
        .insertInto("invitation")
        .values({ ...invitation, id: "i28", email: "c@example.test", expiresAt, createdAt: now, inviterId: null })
        .execute(),
    ).rejects.toThrow();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });

  test("0028 indexes the development receiver's inbox by when it received; its down step drops the index", async () => {
    const db = app.services.database.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const index = async () => {
      const found =
        app.database.dialect === "sqlite"
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'index'
              and tbl_name = 'dev_webhook_receipt' and name = 'dev_webhook_receipt_received_idx'`.execute(db)
          : await sql<{ name: string }>`select indexname as name from pg_indexes
              where tablename = 'dev_webhook_receipt' and indexname = 'dev_webhook_receipt_received_idx'`.execute(db);
      return found.rows.map((row) => row.name);
    };
    expect(await index()).toEqual(["dev_webhook_receipt_received_idx"]);
    expect((await migrator.migrateTo("0025-api-key-actors")).error).toBeUndefined();
    expect(await index()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await index()).toEqual(["dev_webhook_receipt_received_idx"]);
  });

  test("0029 copies each membership's search text on PostgreSQL (none on SQLite); its down step drops it", async () => {
    const db = app.services.database.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const owner = await createVerifiedUser(app, { label: "Backfilled Owner" });
    const organization = await createOrganizationWithOwner(owner, "Backfilled");
    const copied = async () => {
      if (!isPostgresRun())
        return (await sql`select name from sqlite_master where name like 'member_search%'`.execute(db)).rows;
      const exists = await sql<{ name: string | null }>`select to_regclass('member_search')::text as name`.execute(db);
      if (!exists.rows[0]?.name) return [];
      return (
        await sql`select search from member_search
          where organization_id = ${organization.id} and user_id = ${owner.id}`.execute(db)
      ).rows;
    };
    const expected = isPostgresRun() ? [{ search: expect.stringContaining("backfilled owner") }] : [];
    expect(await copied()).toEqual(expected);
    expect((await migrator.migrateTo("0028-dev-webhook-receipt-retention")).error).toBeUndefined();
    expect(await copied()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await copied()).toEqual(expected);
  });

  test("0033 counts each organization's members on PostgreSQL (nothing on SQLite); its down step drops the count", async () => {
    const db = app.services.database.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const owner = await createVerifiedUser(app, { label: "Counted Owner" });
    const organization = await createOrganizationWithOwner(owner, "Counted");
    await addMember(owner, organization.id, await createVerifiedUser(app, { label: "Counted Member" }));
    const counted = async () => {
      if (!isPostgresRun())
        return (await sql`select name from sqlite_master where name like 'member_count%'`.execute(db)).rows;
      const exists = await sql<{ name: string | null }>`select to_regclass('member_count_delta')::text as name`.execute(
        db,
      );
      if (!exists.rows[0]?.name) return [];
      return (
        await sql`select sum(delta)::int as members from member_count_delta
          where organization_id = ${organization.id}`.execute(db)
      ).rows;
    };
    const expected = isPostgresRun() ? [{ members: 2 }] : [];
    expect(await counted()).toEqual(expected);
    expect((await migrator.migrateTo("0032-invitation-changes")).error).toBeUndefined();
    expect(await counted()).toEqual([]);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await counted()).toEqual(expected);
  });

  test("0034 walks the creation times with the text on PostgreSQL, not SQLite; its down step undoes it", async () => {
    const db = app.services.database.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const walked = async () =>
      isPostgresRun()
        ? (
            await sql<{ target: number; indexes: string }>`select attstattarget as target,
                (select string_agg(indexname, ',' order by indexname) from pg_indexes
                  where tablename = 'user_search' and indexdef like '%("createdAt", user_id)%') as indexes
              from pg_attribute where attrelid = 'user_search'::regclass and attname = 'search'`.execute(db)
          ).rows
        : [];
    const expected = isPostgresRun() ? [{ target: 1000, indexes: "user_search_created_search_idx" }] : [];
    expect(await walked()).toEqual(expected);
    expect((await migrator.migrateTo("0033-member-count")).error).toBeUndefined();
    expect(await walked()).toEqual(isPostgresRun() ? [{ target: -1, indexes: "user_search_createdAt_idx" }] : []);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await walked()).toEqual(expected);
  });
});
