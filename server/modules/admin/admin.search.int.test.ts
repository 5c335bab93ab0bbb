import { Migrator, sql, type Insertable, type RawBuilder } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminUserListQuerySchema, type AdminUserListQuery } from "../../../common/admin.schemas";
import { openDatabase, type DatabaseHandle } from "../../db/database";
import { migrateToLatest, migrations } from "../../db/migrate";
import type { Database } from "../../db/schema";
import { createTestDatabase, type TestDatabase } from "../../test/test-database";
import { containsPattern } from "../../db/like-pattern";
import { findUsers } from "./admin.repository";
import { seededRandom } from "../../test/seeded-random";

/**
 * The users list's indexed search (migration 0010: facets, creation-ordered rowids, pairs) against the plainest query
 * that means the same, on a seeded set of users built to catch it out: many users created in the same millisecond,
 * filters that split the facets, non-ASCII names, terms of one, two and more characters. Same ids, same order, same
 * total (or, where PostgreSQL did not count a search past its page, "at least" its end plus one when more match),
 * before and after the users change under it. On SQLite the reference for three characters or more is an FTS5
 * trigram table read whole, as 0008's search was; below that, LIKE. On PostgreSQL, lower() and LIKE.
 */

const NOW = new Date("2025-06-01T00:00:00.000Z");
const DAY = 86_400_000;

let database: TestDatabase;
let handle: DatabaseHandle;

const next = seededRandom(20_250_601);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const chance = (probability: number) => next() < probability;

const FIRST = [
  "John",
  "Joan",
  "Zoë",
  "ZOË",
  "Chloé",
  "Élodie",
  "Søren",
  "Jörg",
  "Li",
  "Ka",
  "Anna",
  "Olson",
  "Mary-Kate",
  "Kåre",
  "Ingrid",
];
const LAST = [
  "Johnson",
  "Olsen",
  "O'Brien",
  "Lindqvist",
  "Smith",
  "Müller",
  "Kaur",
  "Li",
  "Nakamura",
  "Ekwueme",
  "100% Real",
  "Under_score",
];
const DOMAINS = ["example.com", "Example.ORG", "mail.test", "søk.example"];
/** Few distinct creation times, so many users share one: 40 instants over five days, two of them midnights. */
const INSTANTS = [
  ...Array.from({ length: 38 }, () => Math.floor(next() * 5 * DAY)),
  DAY, // 2025-05-02T00:00:00.000Z
  3 * DAY - 1, // 2025-05-03T23:59:59.999Z
].map((offset) => new Date(Date.parse("2025-05-01T00:00:00.000Z") + offset).toISOString());

function shuffled<T>(items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

let serial = 0;
function newUser(): Insertable<Database["user"]> {
  serial += 1;
  const bool = (value: boolean) => (handle.dialect === "postgres" ? value : Number(value));
  const first = pick(FIRST);
  const last = pick(LAST);
  const banned = chance(0.15) ? pick([true, true, false]) : null;
  const createdAt = pick(INSTANTS);
  return {
    id: `u${String(serial).padStart(4, "0")}${pick(["a", "B", "c"])}`,
    name: `${first} ${last}`,
    email: `${first.toLowerCase()}.${serial}@${pick(DOMAINS)}`.replace(" ", ""),
    emailVerified: bool(chance(0.75)),
    image: null,
    createdAt,
    updatedAt: createdAt,
    username: chance(0.6) ? `${last.slice(0, 4)}_${serial}` : null,
    displayUsername: null,
    role: pick(["user", "user", "user", "user", "admin", "admin,user", null, "ADMIN"]),
    banned: banned === null ? null : bool(banned),
    banReason: banned ? "Spam" : null,
    banExpires: banned && chance(0.6) ? new Date(NOW.getTime() + pick([-2, -1, 1, 30]) * DAY).toISOString() : null,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  handle = openDatabase(
    database.dialect === "postgres"
      ? { dialect: "postgres", url: database.url }
      : { dialect: "sqlite", file: database.url },
  );
  // The first users are there before migration 0010, which indexes them all at once; the later ones go through its
  // triggers, inserted out of id order, so that users of the same millisecond are numbered otherwise than by id.
  const migrated = await new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } }).migrateTo(
    "0008-user-search",
  );
  if (migrated.error) throw migrated.error;
  await handle.db
    .insertInto("user")
    .values(Array.from({ length: 300 }, newUser))
    .execute();
  await migrateToLatest(handle.db, { authSecret: null });
  await handle.db
    .insertInto("user")
    .values(shuffled(Array.from({ length: 150 }, newUser)))
    .execute();
  if (handle.dialect === "sqlite") {
    await sql`create virtual table reference_search using fts5(id unindexed, name, email, username, tokenize = 'trigram')`.execute(
      handle.db,
    );
  }
});

afterAll(async () => {
  await handle?.close();
  await database?.drop();
});

/** The same page, the plain way: every user compared, filtered and sorted. */
async function reference(query: AdminUserListQuery): Promise<{ ids: string[]; total: number }> {
  const postgres = handle.dialect === "postgres";
  const term = query.q ?? "";
  const conditions: RawBuilder<unknown>[] = [];
  if (term && !postgres && [...term].length >= 3) {
    conditions.push(
      sql`"user".id in (select id from reference_search where reference_search match ${`"${term.replaceAll('"', '""')}"`})`,
    );
  } else if (term) {
    const pattern = containsPattern(term);
    const column = (name: string) => (postgres ? sql`lower(${sql.ref(`user.${name}`)})` : sql.ref(`user.${name}`));
    conditions.push(
      sql`(${sql.join(
        ["name", "email", "username"].map((name) => sql`${column(name)} like lower(${pattern}) escape '\\'`),
        sql` or `,
      )})`,
    );
  }
  const bool = (value: boolean) => sql.lit(postgres ? value : Number(value));
  const isAdmin = sql`(',' || "user".role || ',') like '%,admin,%'`;
  if (query.role === "admin") conditions.push(isAdmin);
  if (query.role === "user") conditions.push(sql`("user".role is null or not ${isAdmin})`);
  if (query.status === "banned")
    conditions.push(
      sql`("user".banned = ${bool(true)} and ("user"."banExpires" is null or "user"."banExpires" > ${NOW.toISOString()}))`,
    );
  if (query.status === "active")
    conditions.push(sql`("user".banned is not true or "user"."banExpires" <= ${NOW.toISOString()})`);
  if (query.verified) conditions.push(sql`"user"."emailVerified" = ${bool(query.verified === "yes")}`);
  if (query.createdFrom) conditions.push(sql`"user"."createdAt" >= ${`${query.createdFrom}T00:00:00.000Z`}`);
  if (query.createdTo)
    conditions.push(
      sql`"user"."createdAt" < ${new Date(Date.parse(`${query.createdTo}T00:00:00.000Z`) + DAY).toISOString()}`,
    );
  const where = conditions.length ? sql.join(conditions, sql` and `) : sql`true`;
  const column = sql.ref(
    `user.${{ created: "createdAt", name: "name", email: "email", username: "username" }[query.sort]}`,
  );
  const direction = sql.raw(query.order);
  const nulls =
    postgres && query.sort === "username" ? sql.raw(query.order === "asc" ? " nulls first" : " nulls last") : sql``;
  const rows = await sql<{ id: string }>`
    select "user".id from "user" where ${where} order by ${column} ${direction}${nulls}, "user".id ${direction} limit ${query.limit} offset ${query.offset}`.execute(
    handle.db,
  );
  const count = await sql<{ total: number | string }>`select count(*) as total from "user" where ${where}`.execute(
    handle.db,
  );
  return { ids: rows.rows.map((row) => row.id), total: Number(count.rows[0]?.total ?? 0) };
}

async function refreshReference(): Promise<void> {
  if (handle.dialect !== "sqlite") return;
  await sql`delete from reference_search`.execute(handle.db);
  await sql`insert into reference_search (id, name, email, username) select id, name, email, username from "user"`.execute(
    handle.db,
  );
}

const TERMS = [
  "son",
  "SON",
  "jo",
  "JO",
  "o",
  "é",
  "É",
  "zoë",
  "ZOË",
  "li",
  "ka",
  "k",
  "KÅ",
  "ø",
  "ör",
  "example",
  "EXAMPLE.org",
  "n.1",
  "%",
  "0%",
  "_",
  "r_",
  "o'b",
  "john ",
  "nobody-has-this",
  "xq",
];
const FILTERS: Array<Partial<AdminUserListQuery>> = [
  {},
  { status: "active" },
  { status: "banned" },
  { role: "admin" },
  { role: "user" },
  { verified: "yes" },
  { verified: "no" },
  { createdFrom: "2025-05-02" },
  { createdTo: "2025-05-03" },
  { createdFrom: "2025-05-02", createdTo: "2025-05-03" },
  { status: "active", verified: "yes", role: "user" },
  { status: "banned", role: "admin", createdFrom: "2025-05-02" },
  { status: "active", verified: "no", createdTo: "2025-05-04" },
];
const SORTS = [
  ["created", "desc"],
  ["created", "asc"],
  ["name", "asc"],
  ["name", "desc"],
  ["email", "asc"],
  ["email", "desc"],
  ["username", "asc"],
  ["username", "desc"],
] as const;

/** Pages checked per term and filter set. */
const RUNS = 2;

/**
 * The list's page and total against the reference's: the total is exact, unless the list says "at least", where more
 * than the page match and the total is the page's end plus one. Returns whether it said "at least".
 */
async function expectPageOfReference(query: AdminUserListQuery): Promise<boolean> {
  const { rows, total, totalIsLowerBound = false } = await findUsers(handle.db, handle.dialect, query, NOW);
  const { ids, total: exact } = await reference(query);
  const end = query.offset + query.limit;
  const expected = totalIsLowerBound && exact > end ? { total: end + 1, totalIsLowerBound } : { total: exact };
  expect({ query, ids: rows.map((row) => row.id), total, totalIsLowerBound }).toEqual({
    query,
    ids,
    totalIsLowerBound: false,
    ...expected,
  });
  return totalIsLowerBound;
}

/**
 * Every term with every filter, each on a few pages of a few sorts; the page sizes cut through users of the same
 * millisecond. Returns how many queries were compared, and how many of those said "at least".
 */
async function expectSameAsReference(queries = seededRandom(7)): Promise<{ compared: number; atLeast: number }> {
  await refreshReference();
  let compared = 0;
  let atLeast = 0;
  for (const q of TERMS) {
    for (const filters of FILTERS) {
      for (let run = 0; run < RUNS; run += 1) {
        const [sort, order] = SORTS[Math.floor(queries() * SORTS.length)] ?? SORTS[0];
        const limit = [7, 10, 25][Math.floor(queries() * 3)] ?? 10;
        const offset = [0, 0, 7, 13, 40][Math.floor(queries() * 5)] ?? 0;
        const query: AdminUserListQuery = {
          ...adminUserListQuerySchema.parse({}),
          ...filters,
          q,
          sort,
          order,
          limit,
          offset,
        };
        if (await expectPageOfReference(query)) atLeast += 1;
        compared += 1;
      }
    }
  }
  return { compared, atLeast };
}

describe("the indexed users search", () => {
  it("answers as the plain query does: same users, order and total", async () => {
    const { compared, atLeast } = await expectSameAsReference();
    expect(compared).toBe(TERMS.length * FILTERS.length * RUNS);
    // PostgreSQL does not count a search of three characters or more past its page; SQLite counts every one.
    expect(atLeast > 0).toBe(handle.dialect === "postgres");
  });

  it("pages through users created in the same millisecond in id order, in both directions", async () => {
    const crowded = "2025-05-05T12:00:00.000Z";
    await handle.db
      .insertInto("user")
      .values(
        Array.from({ length: 30 }, () => ({
          ...newUser(),
          name: "Tie Breaker",
          createdAt: crowded,
          emailVerified: handle.dialect === "postgres" ? true : 1,
        })).reverse(),
      )
      .execute();
    await refreshReference();
    for (const order of ["desc", "asc"] as const) {
      for (const offset of [0, 5, 11, 29, 30]) {
        for (const filters of [{}, { verified: "yes" as const }, { status: "active" as const }]) {
          const query: AdminUserListQuery = {
            ...adminUserListQuerySchema.parse({}),
            ...filters,
            q: "tie",
            sort: "created",
            order,
            limit: 7,
            offset,
          };
          await expectPageOfReference(query);
        }
      }
    }
  });

  it("follows bans, verifications, role and creation-time changes, renames and deletions", async () => {
    const ids = (await handle.db.selectFrom("user").select("id").orderBy("id").execute()).map((row) => row.id);
    const bool = (value: boolean) => (handle.dialect === "postgres" ? value : Number(value));
    const some = (every: number, from: number) => ids.filter((_, index) => index % every === from);
    await handle.db
      .updateTable("user")
      .set({ banned: bool(true), banExpires: new Date(NOW.getTime() + DAY).toISOString() })
      .where("id", "in", some(7, 0))
      .execute();
    await handle.db
      .updateTable("user")
      .set({ banned: bool(false), banExpires: null })
      .where("id", "in", some(7, 1))
      .execute();
    await handle.db
      .updateTable("user")
      .set({ banExpires: new Date(NOW.getTime() - DAY).toISOString() })
      .where("id", "in", some(7, 2))
      .execute();
    await handle.db
      .updateTable("user")
      .set({ emailVerified: bool(true) })
      .where("id", "in", some(5, 0))
      .execute();
    await handle.db
      .updateTable("user")
      .set({ emailVerified: bool(false) })
      .where("id", "in", some(5, 1))
      .execute();
    await handle.db.updateTable("user").set({ role: "admin" }).where("id", "in", some(9, 0)).execute();
    await handle.db.updateTable("user").set({ role: null }).where("id", "in", some(9, 1)).execute();
    await handle.db
      .updateTable("user")
      .set({ name: "Renamed Olsen", username: null })
      .where("id", "in", some(11, 0))
      .execute();
    await handle.db
      .updateTable("user")
      .set({ email: "moved@elsewhere.example" })
      .where("id", "=", ids[3] ?? "")
      .execute();
    // A new creation time moves the user in the index's order, into or out of a creation-day filter.
    await handle.db
      .updateTable("user")
      .set({ createdAt: "2025-05-03T23:59:59.999Z" })
      .where("id", "in", some(13, 0))
      .execute();
    await handle.db
      .updateTable("user")
      .set({ createdAt: "2025-04-30T08:00:00.000Z" })
      .where("id", "in", some(13, 1))
      .execute();
    await handle.db.deleteFrom("user").where("id", "in", some(17, 0)).execute();
    await handle.db
      .insertInto("user")
      .values(shuffled(Array.from({ length: 40 }, newUser)))
      .execute();
    const { compared, atLeast } = await expectSameAsReference(seededRandom(11));
    expect(compared).toBe(TERMS.length * FILTERS.length * RUNS);
    expect(atLeast > 0).toBe(handle.dialect === "postgres");
  });
});
