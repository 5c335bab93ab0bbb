import { sql, type Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUserListQuerySchema, type AdminUserListQuery } from "../../../common/admin.schemas";
import { openDatabase, type DatabaseHandle } from "../../db/database";
import { migrateToLatest } from "../../db/migrate";
import type { Database } from "../../db/schema";
import { createTestDatabase, type TestDatabase } from "../../test/test-database";
import { findUsers } from "./admin.repository";

/**
 * The users list's query against a real database, on SQLite and on PostgreSQL (TEST_DATABASE_URL): the search over
 * name, e-mail and username through the FTS5 / trigram structures the migrations add, each filter, each sort, paging,
 * and the search structures following renames and deletions.
 */

const NOW = new Date("2025-06-01T00:00:00.000Z");

let database: TestDatabase;
let handle: DatabaseHandle;

type UserFields = {
  name: string;
  email: string;
  username: string | null;
  role?: string | null;
  verified?: boolean;
  banned?: boolean | null;
  banExpires?: string | null;
  createdAt: string;
};

function userRow(id: string, fields: UserFields): Insertable<Database["user"]> {
  const bool = (value: boolean) => (handle.dialect === "postgres" ? value : Number(value));
  return {
    id,
    name: fields.name,
    email: fields.email,
    emailVerified: bool(fields.verified ?? true),
    image: null,
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
    username: fields.username,
    displayUsername: fields.username,
    role: fields.role === undefined ? "user" : fields.role,
    banned: fields.banned === undefined || fields.banned === null ? null : bool(fields.banned),
    banReason: fields.banned ? "Spam" : null,
    banExpires: fields.banExpires ?? null,
  };
}

// Names, e-mails and usernames each begin differently, so binary and linguistic collations sort them alike.
const USERS: Record<string, UserFields> = {
  u01: {
    name: "Alice Archer",
    email: "alice.archer@example.test",
    username: "alice_a",
    createdAt: "2024-01-01T08:00:00.000Z",
  },
  u02: {
    name: "Bob Brown",
    email: "bob@builders.example",
    username: null,
    role: "admin",
    createdAt: "2024-01-02T00:00:00.000Z",
  },
  u03: {
    name: "Carol 100% Real",
    email: "carol_x@example.test",
    username: "carol_x",
    role: "admin,user",
    verified: false,
    createdAt: "2024-01-02T23:59:59.999Z",
  },
  u04: {
    name: "Dave Dunn",
    email: "dave@example.test",
    username: "dunn100",
    banned: true,
    createdAt: "2024-01-03T00:00:00.000Z",
  },
  u05: {
    name: 'Eve "Back\\slash" Evans',
    email: "eve@example.test",
    username: "eve",
    banned: true,
    banExpires: "2025-01-01T00:00:00.000Z",
    createdAt: "2024-01-04T00:00:00.000Z",
  },
  u06: {
    name: "Frank Foster",
    email: "frank@example.test",
    username: null,
    verified: false,
    banned: true,
    banExpires: "2025-07-01T00:00:00.000Z",
    createdAt: "2024-01-05T00:00:00.000Z",
  },
  u07: {
    name: "Same Name",
    email: "same1@example.test",
    username: "same_a",
    banned: false,
    createdAt: "2024-01-06T00:00:00.000Z",
  },
  u08: {
    name: "Same Name",
    email: "same2@example.test",
    username: null,
    role: null,
    createdAt: "2024-01-06T00:00:00.000Z",
  },
};

beforeAll(async () => {
  database = await createTestDatabase();
  handle = openDatabase(
    database.dialect === "postgres"
      ? { dialect: "postgres", url: database.url }
      : { dialect: "sqlite", file: database.url },
  );
  await migrateToLatest(handle.db, { authSecret: null });
  await handle.db
    .insertInto("user")
    .values(Object.entries(USERS).map(([id, fields]) => userRow(id, fields)))
    .execute();
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

async function list(overrides: Partial<AdminUserListQuery> = {}): Promise<{ ids: string[]; total: number }> {
  const query: AdminUserListQuery = { ...adminUserListQuerySchema.parse({}), ...overrides };
  const { rows, total } = await findUsers(handle.db, handle.dialect, query, NOW);
  return { ids: rows.map((row) => row.id), total };
}

const found = (...ids: string[]) => ({ ids, total: ids.length });

describe("the users list's search", () => {
  it("finds part of a name, of an e-mail and of a username", async () => {
    expect(await list({ q: "Brown" })).toEqual(found("u02"));
    expect(await list({ q: "builders" })).toEqual(found("u02"));
    expect(await list({ q: "dunn1" })).toEqual(found("u04"));
    expect(await list({ q: "100" })).toEqual(found("u04", "u03"));
  });

  it("ignores case", async () => {
    expect(await list({ q: "ALICE" })).toEqual(found("u01"));
    expect(await list({ q: "bUiLdErS.ExAmPlE" })).toEqual(found("u02"));
    expect(await list({ q: "DUNN" })).toEqual(found("u04"));
  });

  it("finds terms of one and two characters", async () => {
    expect(await list({ q: "k" })).toEqual(found("u06", "u05"));
    expect(await list({ q: "ev" })).toEqual(found("u05"));
    expect(await list({ q: "EV" })).toEqual(found("u05"));
  });

  it("matches %, _, \\ and quotes literally, in short and long terms", async () => {
    expect(await list({ q: "%" })).toEqual(found("u03"));
    expect(await list({ q: "0%" })).toEqual(found("u03"));
    expect(await list({ q: "0% r" })).toEqual(found("u03"));
    expect(await list({ q: "_x" })).toEqual(found("u03"));
    expect(await list({ q: "l_x@" })).toEqual(found("u03"));
    expect(await list({ q: "\\s" })).toEqual(found("u05"));
    expect(await list({ q: "k\\slash" })).toEqual(found("u05"));
    expect(await list({ q: '"back\\' })).toEqual(found("u05"));
  });

  it("answers nothing for a term nobody has", async () => {
    expect(await list({ q: "nobody-has-this" })).toEqual(found());
    expect(await list({ q: "qz" })).toEqual(found());
  });

  it("combines the search with the filters", async () => {
    expect(await list({ q: "example", status: "active", verified: "yes" })).toEqual(
      found("u08", "u07", "u05", "u02", "u01"),
    );
    expect(await list({ q: "example", role: "admin" })).toEqual(found("u03", "u02"));
    expect(await list({ q: "k", status: "banned" })).toEqual(found("u06"));
    expect(await list({ q: "ev", status: "banned" })).toEqual(found());
    expect(await list({ q: "frank", createdFrom: "2024-01-06" })).toEqual(found());
  });
});

describe("the users list's filters", () => {
  it("by role: admin when the comma-separated roles hold admin, user otherwise (no role included)", async () => {
    expect(await list({ role: "admin" })).toEqual(found("u03", "u02"));
    expect(await list({ role: "user" })).toEqual(found("u08", "u07", "u06", "u05", "u04", "u01"));
  });

  it("by status: banned is a ban in force now, whose expiry has not passed", async () => {
    expect(await list({ status: "banned" })).toEqual(found("u06", "u04"));
    expect(await list({ status: "active" })).toEqual(found("u08", "u07", "u05", "u03", "u02", "u01"));
  });

  it("by verified e-mail", async () => {
    expect(await list({ verified: "no" })).toEqual(found("u06", "u03"));
    expect(await list({ verified: "yes" })).toEqual(found("u08", "u07", "u05", "u04", "u02", "u01"));
  });

  it("by creation day, both bounds inclusive, in UTC", async () => {
    expect(await list({ createdFrom: "2024-01-02", createdTo: "2024-01-02" })).toEqual(found("u03", "u02"));
    expect(await list({ createdFrom: "2024-01-05" })).toEqual(found("u08", "u07", "u06"));
    expect(await list({ createdTo: "2024-01-01" })).toEqual(found("u01"));
    expect(await list({ createdFrom: "2024-01-07" })).toEqual(found());
  });
});

describe("the users list's sorting and paging", () => {
  it.each([
    ["created", "asc", ["u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08"]],
    ["created", "desc", ["u08", "u07", "u06", "u05", "u04", "u03", "u02", "u01"]],
    ["name", "asc", ["u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08"]],
    ["name", "desc", ["u08", "u07", "u06", "u05", "u04", "u03", "u02", "u01"]],
    ["email", "asc", ["u01", "u02", "u03", "u04", "u05", "u06", "u07", "u08"]],
    ["email", "desc", ["u08", "u07", "u06", "u05", "u04", "u03", "u02", "u01"]],
    // Users without a username sort first ascending, last descending.
    ["username", "asc", ["u02", "u06", "u08", "u01", "u03", "u04", "u05", "u07"]],
    ["username", "desc", ["u07", "u05", "u04", "u03", "u01", "u08", "u06", "u02"]],
  ] as const)("sorts by %s %s, ties broken by id", async (sort, order, ids) => {
    expect(await list({ sort, order })).toEqual(found(...ids));
    // The same order when a search narrows the list, and when a short term does.
    expect(await list({ sort, order, q: "example" })).toEqual(found(...ids));
    expect(await list({ sort, order, q: "e" })).toEqual(found(...ids));
  });

  it("pages through the list with the total of all matches", async () => {
    expect(await list({ sort: "created", order: "asc", limit: 3 })).toEqual({ ids: ["u01", "u02", "u03"], total: 8 });
    expect(await list({ sort: "created", order: "asc", limit: 3, offset: 3 })).toEqual({
      ids: ["u04", "u05", "u06"],
      total: 8,
    });
    expect(await list({ sort: "created", order: "asc", limit: 3, offset: 6 })).toEqual({
      ids: ["u07", "u08"],
      total: 8,
    });
    expect(await list({ sort: "created", order: "asc", limit: 3, offset: 9 })).toEqual({ ids: [], total: 8 });
    expect(await list({ limit: 1 })).toEqual({ ids: ["u08"], total: 8 });
    expect(await list({ limit: 2, offset: 2 })).toEqual({ ids: ["u06", "u05"], total: 8 });
  });

  it("pages through a search with its total, or on PostgreSQL the page's end plus one while more follow", async () => {
    const counted = (exact: number, end: number) => (handle.dialect === "postgres" && exact > end ? end + 1 : exact);
    expect(await list({ q: "example", sort: "name", order: "asc", limit: 3, offset: 3 })).toEqual({
      ids: ["u04", "u05", "u06"],
      total: counted(8, 6),
    });
    expect(await list({ q: "example", sort: "name", order: "asc", limit: 3, offset: 6 })).toEqual({
      ids: ["u07", "u08"],
      total: 8,
    });
    expect(await list({ q: "example", sort: "email", order: "desc", limit: 1 })).toEqual({
      ids: ["u08"],
      total: counted(8, 1),
    });
    expect(await list({ q: "e", sort: "email", order: "desc", limit: 3, offset: 3 })).toEqual({
      ids: ["u05", "u04", "u03"],
      total: counted(8, 6),
    });
    expect(await list({ q: "e", limit: 1, offset: 1 })).toEqual({ ids: ["u07"], total: counted(8, 2) });
    expect(await list({ q: "example.test", status: "active", limit: 2, offset: 2 })).toEqual({
      ids: ["u05", "u03"],
      total: counted(5, 4),
    });
    expect(await list({ q: "same", offset: 2 })).toEqual({ ids: [], total: 2 });
  });
});

describe("the users list's total", () => {
  it("follows users added one at a time and removed many at once, exact while PostgreSQL folds its count; a search's is bounded", async () => {
    const before = (await list()).total;
    const added = Array.from({ length: 1_001 }, (_, index) => `total-${String(index).padStart(4, "0")}`);
    for (const id of added) {
      const fields = {
        name: `Total ${id}`,
        email: `${id}@total.example`,
        username: null,
        createdAt: NOW.toISOString(),
      };
      await handle.db.insertInto("user").values(userRow(id, fields)).execute();
    }
    expect((await list({ limit: 1 })).total).toBe(before + added.length);
    if (handle.dialect === "postgres") {
      // More than a thousand rows of changes, one per insert: that read folded them into one.
      const rows = await sql<{ rows: string }>`select count(*) as rows from user_count_delta`.execute(handle.db);
      expect(rows.rows).toEqual([{ rows: "1" }]);
    }
    expect((await list({ limit: 1 })).total).toBe(before + added.length);
    // A search on PostgreSQL is not counted past its page: it reads one row further and says "at least" the page's
    // end plus one when that row is there. A page past the end counts the matches up to its offset.
    const searched = async (offset: number) => {
      const query = { ...adminUserListQuerySchema.parse({}), q: "@total.example", offset };
      const { rows, total, totalIsLowerBound } = await findUsers(handle.db, handle.dialect, query, NOW);
      return { rows: rows.length, total, totalIsLowerBound: totalIsLowerBound ?? false };
    };
    const isPostgres = handle.dialect === "postgres";
    expect(await searched(0)).toEqual({ rows: 25, total: isPostgres ? 26 : 1001, totalIsLowerBound: isPostgres });
    expect(await searched(975)).toEqual({ rows: 25, total: 1001, totalIsLowerBound: isPostgres });
    expect(await searched(976)).toEqual({ rows: 25, total: 1001, totalIsLowerBound: false });
    expect(await searched(1000)).toEqual({ rows: 1, total: 1001, totalIsLowerBound: false });
    expect(await searched(1001)).toEqual({ rows: 0, total: 1001, totalIsLowerBound: false });
    expect(await searched(5000)).toEqual({ rows: 0, total: 1001, totalIsLowerBound: false });
    await handle.db.deleteFrom("user").where("id", "in", added).execute();
    expect((await list({ limit: 1 })).total).toBe(before);
  });
});

describe("the search follows the users table", () => {
  it("after a rename, an e-mail change, a username change and a deletion", async () => {
    await handle.db
      .insertInto("user")
      .values(
        userRow("u09", {
          name: "Quentin Quill",
          email: "qq@sync.example",
          username: "quill_q",
          createdAt: "2024-02-01T00:00:00.000Z",
        }),
      )
      .execute();
    expect(await list({ q: "quentin" })).toEqual(found("u09"));

    await handle.db.updateTable("user").set({ name: "Rupert Rowe" }).where("id", "=", "u09").execute();
    expect(await list({ q: "quentin" })).toEqual(found());
    expect(await list({ q: "rupert" })).toEqual(found("u09"));

    await handle.db.updateTable("user").set({ email: "rr@renamed.example" }).where("id", "=", "u09").execute();
    expect(await list({ q: "sync.example" })).toEqual(found());
    expect(await list({ q: "renamed" })).toEqual(found("u09"));

    await handle.db.updateTable("user").set({ username: "rowe_r" }).where("id", "=", "u09").execute();
    expect(await list({ q: "quill" })).toEqual(found());
    expect(await list({ q: "rowe_r" })).toEqual(found("u09"));

    // A change to a column the search does not read leaves it alone.
    await handle.db.updateTable("user").set({ role: "admin" }).where("id", "=", "u09").execute();
    expect(await list({ q: "rupert", role: "admin" })).toEqual(found("u09"));

    await handle.db.deleteFrom("user").where("id", "=", "u09").execute();
    expect(await list({ q: "rupert" })).toEqual(found());
    expect(await list({ q: "renamed" })).toEqual(found());
    expect(await list()).toEqual(found("u08", "u07", "u06", "u05", "u04", "u03", "u02", "u01"));
  });

  it("after VACUUM, which may renumber the users table's own rowids", async () => {
    await handle.db
      .insertInto("user")
      .values([
        userRow("u10", {
          name: "Gone Soon",
          email: "gone@vacuum.example",
          username: null,
          createdAt: "2024-03-01T00:00:00.000Z",
        }),
        userRow("u11", {
          name: "Still Here",
          email: "still@vacuum.example",
          username: null,
          createdAt: "2024-03-02T00:00:00.000Z",
        }),
      ])
      .execute();
    await handle.db.deleteFrom("user").where("id", "=", "u10").execute();
    await sql`vacuum`.execute(handle.db);
    expect(await list({ q: "vacuum.example" })).toEqual(found("u11"));
    expect(await list({ q: "Still" })).toEqual(found("u11"));
    expect(await list({ q: "alice" })).toEqual(found("u01"));
    await handle.db.deleteFrom("user").where("id", "=", "u11").execute();
    expect(await list({ q: "vacuum.example" })).toEqual(found());
  });
});
