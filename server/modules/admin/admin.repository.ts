import {
  PostgresAdapter,
  sql,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from "kysely";
import {
  isBannedNow,
  type AdminSecondFactors,
  type AdminOrganizationDetail,
  type AdminOrganizationListQuery,
  type AdminUserListQuery,
} from "../../../common/admin.schemas";
import { isPlatformAdmin } from "../../../common/permissions";
import { toIsoString, type Dialect } from "../../db/database";
import { containsPattern } from "../../db/like-pattern";
import type { Database } from "../../db/schema";

/** The platform-admin console's reads. Platform admins see every tenant, so nothing here takes an organization scope. */

export type UserRow = {
  id: string;
  name: string;
  email: string;
  username: string | null;
  displayUsername: string | null;
  image: string | null;
  role: string | null;
  emailVerified: boolean | number;
  banned: boolean | number | null;
  banReason: string | null;
  banExpires: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
};

const USER_COLUMNS = [
  "user.id",
  "user.name",
  "user.email",
  "user.username",
  "user.displayUsername",
  "user.image",
  "user.role",
  "user.emailVerified",
  "user.banned",
  "user.banReason",
  "user.banExpires",
  "user.createdAt",
  "user.updatedAt",
] as const;

const SORT_COLUMNS = {
  created: "user.createdAt",
  name: "user.name",
  email: "user.email",
  username: "user.username",
} as const;

/** A trigram index can narrow a search only from three characters on. */
const TRIGRAM_LENGTH = 3;
/** The length of a term the pair indexes serve. */
const PAIR_LENGTH = 2;
/** PostgreSQL's user_search separates the lowercased name, e-mail and username with this character (migration 0010). */
const POSTGRES_SEPARATOR = "\u0001";

type UserListQuery = SelectQueryBuilder<Database, "user", object>;

/**
 * One page of users for the console's list, with the total the filters match. The search is case-insensitive; the
 * term's `%`, `_` and `\` match themselves. Dates are bound as ISO text: SQLite stores them so (and compares them as
 * text), PostgreSQL casts them. Users without a username sort as the smallest on both databases.
 */
export async function findUsers(
  db: Kysely<Database>,
  dialect: Dialect,
  query: AdminUserListQuery,
  now = new Date(),
): Promise<{ rows: UserRow[]; total: number; totalIsLowerBound?: boolean }> {
  const term = query.q ?? "";
  if (dialect === "postgres") return findPostgresUsers(db, term, query, now);
  const filters = userFilters(dialect, query, now);
  if ([...term].length >= TRIGRAM_LENGTH) return findSqliteUsersByIndex(db, trigramIndex(term), filters, query);
  // The pattern LIKE compares with: its length decides, since lowercasing may change it.
  const lowered = term.toLowerCase();
  if ([...lowered].length === PAIR_LENGTH) return findSqliteUsersByIndex(db, pairIndex(lowered), filters, query);
  const matching = withConditions(db.selectFrom("user"), term ? [sqliteContainsTerm(term), ...filters] : filters);
  const total = await countUsers(matching);
  if (query.offset >= total) return { rows: [], total };
  // Along the sort order's index the page costs about (offset + limit) × users / total reads, each at a random place;
  // reading every user in place and sorting the matches costs about a quarter of that per user.
  const alongSort = total >= 4 * (query.offset + query.limit);
  return { rows: await findPage(matching, "sqlite", query, alongSort), total };
}

/** SQLite, a term of one character (or one lowercasing lengthens): each user's columns are compared as stored, since LIKE ignores ASCII case on its own. */
function sqliteContainsTerm(term: string): Expression<SqlBool> {
  const pattern = containsPattern(term);
  const like = (column: "user.name" | "user.email" | "user.username") =>
    sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
  return sql<SqlBool>`(${like("user.name")} or ${like("user.email")} or ${like("user.username")})`;
}

/**
 * SQLite's search indexes (migration 0010): FTS5 tables whose columns come in eight groups, one per facet (the bits
 * below), and whose rowids follow the users' creation times, 2^20 per millisecond. `match` is the MATCH expression
 * over the given facets' columns.
 */
type SqliteSearchIndex = { table: "user_search" | "user_search_pair"; match(facets: readonly number[]): string };

const FACET_ADMIN = 4;
const FACET_VERIFIED = 2;
const FACET_BANNED = 1;
const FACETS = [0, 1, 2, 3, 4, 5, 6, 7] as const;
const IDS_PER_MILLISECOND = 1_048_576n;

/** Terms of three characters or more. Inside double quotes an FTS5 query is one literal phrase: with the trigram tokenizer, a case-insensitive substring. */
function trigramIndex(term: string): SqliteSearchIndex {
  const phrase = `"${term.replaceAll('"', '""')}"`;
  return {
    table: "user_search",
    match: (facets) => inColumns(facets, (facet) => `name_${facet} email_${facet} username_${facet}`, phrase),
  };
}

/**
 * Terms of two characters, already lowercased as JavaScript does; the index holds pairs of SQLite's lower(), which
 * folds only ASCII, so a pair matches exactly where LIKE would.
 */
function pairIndex(lowered: string): SqliteSearchIndex {
  const token = `p${Buffer.from(lowered, "utf8").toString("hex")}`;
  return { table: "user_search_pair", match: (facets) => inColumns(facets, (facet) => `pairs_${facet}`, token) };
}

/** A query limited to the facets' columns; over every facet, none (a column filter costs a little per match). */
function inColumns(facets: readonly number[], columns: (facet: number) => string, query: string): string {
  return facets.length === FACETS.length ? query : `{${facets.map(columns).join(" ")}} : ${query}`;
}

/**
 * Which facets hold the users the filters ask for. `exact`: their users pass the filters as they are; `checked`: their
 * users' ban must be compared with now (banned is set, and a status filter asks).
 */
function facetsOf(query: AdminUserListQuery): { exact: number[]; checked: number[] } {
  const wanted = FACETS.filter(
    (facet) =>
      (!query.role || Boolean(facet & FACET_ADMIN) === (query.role === "admin")) &&
      (!query.verified || Boolean(facet & FACET_VERIFIED) === (query.verified === "yes")),
  );
  if (!query.status) return { exact: wanted, checked: [] };
  const banned = wanted.filter((facet) => facet & FACET_BANNED);
  return { exact: query.status === "active" ? wanted.filter((facet) => !(facet & FACET_BANNED)) : [], checked: banned };
}

/** The creation-day filters as a range of rowids: users' creation times are ISO text, so the text and time orders agree. */
function rowidRange(query: AdminUserListQuery, rowid: RawBuilder<unknown>): Array<Expression<SqlBool>> {
  const at = (day: string) => BigInt(Date.parse(`${day}T00:00:00.000Z`)) * IDS_PER_MILLISECOND;
  const range: Array<Expression<SqlBool>> = [];
  if (query.createdFrom) range.push(sql<SqlBool>`${rowid} >= ${at(query.createdFrom)}`);
  if (query.createdTo) range.push(sql<SqlBool>`${rowid} < ${at(query.createdTo) + 86_400_000n * IDS_PER_MILLISECOND}`);
  return range;
}

const and = (conditions: Array<Expression<SqlBool>>) =>
  conditions.length ? sql.join(conditions, sql` and `) : sql`true`;

/**
 * SQLite, a term an FTS index serves. The total is counted in the index (a facet is a column filter, a creation day a
 * rowid range); only users whose ban must be compared with now are looked up. The default sort, by creation time, is
 * the index's own order: the page's rows are the first ones read. Another sort walks its index testing each user
 * against the matches, or looks the matches up and sorts them, whichever reads fewer rows.
 */
async function findSqliteUsersByIndex(
  db: Kysely<Database>,
  index: SqliteSearchIndex,
  filters: Array<Expression<SqlBool>>,
  query: AdminUserListQuery,
): Promise<{ rows: UserRow[]; total: number }> {
  const { exact, checked } = facetsOf(query);
  const facets = [...exact, ...checked].sort((a, b) => a - b);
  const found = (facets: readonly number[], rowidConditions: Array<Expression<SqlBool>> = []) =>
    sql`select search.rowid as search_id from ${sql.table(index.table)}(${index.match(facets)}) as search where ${and([
      ...rowidRange(query, sql`search.rowid`),
      ...rowidConditions,
    ])}`;
  const byMatch = (facets: readonly number[], rowidConditions: Array<Expression<SqlBool>> = []) =>
    sql<SqlBool>`${sql.ref("user.id")} in (select user_id from user_search_key where search_id in (${found(facets, rowidConditions)}))`;
  const matching = (condition: Expression<SqlBool>) => withConditions(db.selectFrom("user"), [condition, ...filters]);

  const [inIndex, looked] = await Promise.all([
    exact.length
      ? sql<{ total: number }>`select count(*) as total from (${found(exact)})`
          .execute(db)
          .then((result) => Number(result.rows[0]?.total ?? 0))
      : 0,
    checked.length ? countUsers(matching(byMatch(checked))) : 0,
  ]);
  const total = inIndex + looked;
  if (query.offset >= total) return { rows: [], total };

  const wanted = query.offset + query.limit;
  if (query.sort === "created") {
    if (total <= wanted) return { rows: await findPage(matching(byMatch(facets)), "sqlite", query, false), total };
    // The rows of the page are among the first `wanted` matches in the index's order, and those of the last one's
    // millisecond, whose order is the ids'.
    const descending = query.order === "desc";
    const lastMatch = sql`(
      select search.rowid - (search.rowid & ${IDS_PER_MILLISECOND - 1n}) ${descending ? sql`` : sql`+ ${IDS_PER_MILLISECOND}`}
      from ${sql.table(index.table)}(${index.match(facets)}) as search
        ${checked.length ? sql`join user_search_key on user_search_key.search_id = search.rowid join "user" on "user".id = user_search_key.user_id` : sql``}
      where ${and([...rowidRange(query, sql`search.rowid`), ...(checked.length ? filters : [])])}
      order by search.rowid ${sql.raw(descending ? "desc" : "asc")} limit 1 offset ${wanted - 1})`;
    const first = sql<SqlBool>`search.rowid ${sql.raw(descending ? ">=" : "<")} coalesce(${lastMatch}, ${descending ? -(2n ** 63n) : 2n ** 63n - 1n})`;
    return { rows: await findPage(matching(byMatch(facets, [first])), "sqlite", query, false), total };
  }
  // An upper bound (deleted users leave gaps), read from the end of the table.
  const users = await sql<{ users: number | null }>`select max(rowid) as users from "user"`
    .execute(db)
    .then((result) => result.rows[0]?.users ?? 0);
  // Walking the sort order tests about wanted × users / total users, one key lookup each, after listing the matches;
  // looking the matches up costs about as much per match as a test, and sorting them more.
  const alongSort = wanted * users <= total * total;
  const byUser = sql<SqlBool>`(select search_id from user_search_key where user_id = ${sql.ref("user.id")}) in (${found(facets)})`;
  return { rows: await findPage(matching(alongSort ? byUser : byMatch(facets)), "sqlite", query, alongSort), total };
}

/**
 * PostgreSQL, which plans from its statistics. user_search holds the searched columns lowercased by the same lower()
 * as the pattern, in one column, and what the filters read. A term of three characters or more is found through its
 * trigram index and not counted past its page; one of two is counted there alone, through its index of character
 * pairs. A page in creation order walks user_search's index of creation times. A term that holds the separator is
 * compared column by column on the users.
 */
async function findPostgresUsers(
  db: Kysely<Database>,
  term: string,
  query: AdminUserListQuery,
  now: Date,
): Promise<{ rows: UserRow[]; total: number; totalIsLowerBound?: boolean }> {
  const filters = userFilters("postgres", query, now);
  if (!term || term.includes(POSTGRES_SEPARATOR)) {
    const pattern = containsPattern(term);
    const like = (column: "user.name" | "user.email" | "user.username") =>
      sql<SqlBool>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`;
    const matching = withConditions(
      db.selectFrom("user"),
      term
        ? [sql<SqlBool>`(${like("user.name")} or ${like("user.email")} or ${like("user.username")})`, ...filters]
        : filters,
    );
    const counted = term || filters.length > 0 ? countUsers(matching) : countAllPostgresUsers(db);
    const [rows, total] = await Promise.all([findPage(matching, "postgres", query), counted]);
    return { rows, total };
  }
  const searched = (found: Expression<SqlBool>) => and([found, ...userFilters("postgres", query, now, "user_search")]);
  /** The matches' count, or with `limit` the count of at most that many. */
  const counted = (found: Expression<SqlBool>, limit?: number) =>
    limit === undefined
      ? sql<string>`(select count(*) from user_search where ${searched(found)})`
      : sql<string>`(select count(*) from (select from user_search where ${searched(found)}
          limit ${limit}) as matches)`;
  /** A page; `limit` reads further than the page's own. */
  const page = (found: Expression<SqlBool>, limit = query.limit) => {
    if (query.sort !== "created") {
      const matching = withConditions(db.selectFrom("user"), [
        sql<SqlBool>`${sql.ref("user.id")} in (select user_id from user_search where ${found})`,
        ...filters,
      ]);
      return findPage(matching, "postgres", { ...query, limit });
    }
    const order = sql.raw(query.order);
    const ids = sql`select user_id from user_search where ${searched(found)}
      order by "createdAt" ${order}, user_id ${order} limit ${limit} offset ${query.offset}`;
    return db
      .selectFrom("user")
      .select(USER_COLUMNS)
      .where(sql<SqlBool>`${sql.ref("user.id")} in (${ids})`)
      .orderBy("user.createdAt", query.order)
      .orderBy("user.id", query.order)
      .execute() as Promise<UserRow[]>;
  };
  const like = sql<SqlBool>`user_search.search like lower(${containsPattern(term)}) escape '\\'`;
  const lowered = term.toLowerCase();
  if ([...lowered].length !== PAIR_LENGTH) {
    // No count past the page: a common term matches a tenth of a million users, and even a count that stops soon
    // after the page builds the trigram index's whole bitmap of candidates first (5.5 of 7.5 ms for `smith` among a
    // million users, against 2.1 ms for the page). The page reads one row further to tell whether more follow.
    const rows = await page(like, query.limit + 1);
    if (rows.length > query.limit)
      return { rows: rows.slice(0, query.limit), total: query.offset + rows.length, totalIsLowerBound: true };
    if (rows.length > 0 || query.offset === 0) return { rows, total: query.offset + rows.length };
    // A page past the end: the matches are fewer than its offset, so a count that stops there is exact.
    const { rows: ended } = await sql<{ total: string }>`select ${counted(like, query.offset)} as total`.execute(db);
    return { rows: [], total: Number(ended[0]?.total ?? 0) };
  }
  // A text holds a term of two characters when it holds it as a pair. Should lower() make the term longer or shorter,
  // the pairs only narrow and LIKE decides; otherwise the planner folds that condition away (and estimates well).
  const pairs = sql<SqlBool>`user_search_pairs(user_search.search) @> user_search_pairs(lower(${lowered})) and (char_length(lower(${lowered})) = ${sql.lit(PAIR_LENGTH)} or ${like})`;
  const sizes = await sql<{ total: string; users: number }>`
    select ${counted(pairs)} as total, (select reltuples from pg_class where oid = ${sql.lit('"user"')}::regclass) as users`.execute(
    db,
  );
  const total = Number(sizes.rows[0]?.total ?? 0);
  if (query.offset >= total) return { rows: [], total };
  // The pairs index finds few matches fast; many are found sooner along the sort order, tested with LIKE, which costs
  // far less per user than computing their pairs. (reltuples is -1 before the first ANALYZE.)
  const users = Number(sizes.rows[0]?.users ?? -1);
  const alongSort = users > 0 && (query.offset + query.limit) * users <= total * total;
  return { rows: await page(alongSort ? like : pairs), total };
}

function withConditions(query: UserListQuery, conditions: Array<Expression<SqlBool>>): UserListQuery {
  return conditions.length ? query.where((eb) => eb.and(conditions)) : query;
}

/**
 * `alongSort: false` keeps SQLite off the sort order's index (`+column`), so it reads the users in place and sorts the
 * matches.
 */
async function findPage(
  matching: UserListQuery,
  dialect: Dialect,
  query: AdminUserListQuery,
  alongSort = true,
): Promise<UserRow[]> {
  const column = SORT_COLUMNS[query.sort];
  const sorted =
    dialect === "postgres" && query.sort === "username"
      ? matching.orderBy(column, (ob) => (query.order === "asc" ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
      : matching.orderBy(alongSort ? sql.ref(column) : sql`+${sql.ref(column)}`, query.order);
  return (await sorted
    .select(USER_COLUMNS)
    .orderBy("user.id", query.order)
    .limit(query.limit)
    .offset(query.offset)
    .execute()) as UserRow[];
}

/** Rows of user_count_delta past which a read folds them into one. */
const USER_COUNT_ROWS_KEPT = 1_000;

/**
 * Every user, on PostgreSQL: the sum of user_count_delta (migration 0030) instead of a count of 1,000,000 rows. Past
 * USER_COUNT_ROWS_KEPT rows, the read folds them into one row in one statement: a concurrent fold takes only the
 * rows it deleted, so the sum stays exact.
 */
async function countAllPostgresUsers(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ total: string; rows: string }>`
    select coalesce(sum(delta), 0) as total, count(*) as rows from user_count_delta`.execute(db);
  const { total = "0", rows: kept = "0" } = rows[0] ?? {};
  if (Number(kept) > USER_COUNT_ROWS_KEPT)
    await sql`with folded as (delete from user_count_delta returning delta)
      insert into user_count_delta (delta) select coalesce(sum(delta), 0) from folded`.execute(db);
  return Number(total);
}

async function countUsers(matching: UserListQuery): Promise<number> {
  const { total } = await matching
    .select((eb) => eb.fn.countAll<number | string>().as("total"))
    .executeTakeFirstOrThrow();
  return Number(total);
}

/**
 * The list's filters, on the users table or on PostgreSQL's user_search (which copies its columns under their names,
 * and holds whether the user is a platform admin). Booleans are literals, not parameters (SQLite stores 0/1), and the
 * banned one is written as the partial index `user_banned_createdAt_idx` is, so both databases use it. The role column
 * lists roles separated by commas.
 */
function userFilters(
  dialect: Dialect,
  query: AdminUserListQuery,
  now: Date,
  table: "user" | "user_search" = "user",
): Array<Expression<SqlBool>> {
  const filters: Array<Expression<SqlBool>> = [];
  const column = (name: "role" | "banned" | "banExpires" | "emailVerified" | "createdAt") =>
    sql.ref(`${table}.${name}`);
  const bool = (value: boolean) => sql.lit(dialect === "postgres" ? value : Number(value));
  if (table === "user_search") {
    // PostgreSQL's user_search holds the role filter's answer.
    if (query.role) filters.push(sql<SqlBool>`${query.role === "admin" ? sql`` : sql`not `}user_search.admin`);
  } else {
    const isAdmin = sql<SqlBool>`(',' || ${column("role")} || ',') like '%,admin,%'`;
    if (query.role === "admin") filters.push(isAdmin);
    if (query.role === "user") filters.push(sql<SqlBool>`(${column("role")} is null or not ${isAdmin})`);
  }
  const nowText = now.toISOString();
  if (query.status === "banned") {
    filters.push(
      sql<SqlBool>`${column("banned")} = ${bool(true)}`,
      sql<SqlBool>`(${column("banExpires")} is null or ${column("banExpires")} > ${nowText})`,
    );
  }
  if (query.status === "active")
    filters.push(sql<SqlBool>`(${column("banned")} is not true or ${column("banExpires")} <= ${nowText})`);
  if (query.verified) filters.push(sql<SqlBool>`${column("emailVerified")} = ${bool(query.verified === "yes")}`);
  if (query.createdFrom) filters.push(sql<SqlBool>`${column("createdAt")} >= ${`${query.createdFrom}T00:00:00.000Z`}`);
  if (query.createdTo) {
    const nextDay = new Date(Date.parse(`${query.createdTo}T00:00:00.000Z`) + 86_400_000).toISOString();
    filters.push(sql<SqlBool>`${column("createdAt")} < ${nextDay}`);
  }
  return filters;
}

export async function findUser(db: Kysely<Database>, userId: string): Promise<UserRow | undefined> {
  return (await db.selectFrom("user").select(USER_COLUMNS).where("user.id", "=", userId).executeTakeFirst()) as
    UserRow | undefined;
}

/** The user's ways in: the password (`credential`) and each provider, with the e-mail the provider last asserted. */
export async function findSignInMethods(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom("account")
    .select(["providerId", "email", "createdAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  return rows.map((row) => ({
    providerId: row.providerId,
    email: row.email,
    createdAt: toIsoString(row.createdAt) ?? "",
  }));
}

export async function findUserOrganizations(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["organization.id", "organization.name", "organization.slug", "member.role", "member.createdAt"])
    .where("member.userId", "=", userId)
    .orderBy("organization.name")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    role: row.role,
    joinedAt: toIsoString(row.createdAt) ?? "",
  }));
}

/** Organizations newest first, searched by name or slug, with their member counts. */
export async function findOrganizations(db: Kysely<Database>, query: AdminOrganizationListQuery) {
  let base = db.selectFrom("organization");
  if (query.q) {
    const pattern = containsPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        sql<SqlBool>`lower(${sql.ref("organization.name")}) like ${pattern} escape '\\'`,
        sql<SqlBool>`${sql.ref("organization.slug")} like ${pattern} escape '\\'`,
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .select((eb) => [
        "organization.id",
        "organization.name",
        "organization.slug",
        "organization.createdAt",
        eb
          .selectFrom("member")
          .whereRef("member.organizationId", "=", "organization.id")
          .select(eb.fn.countAll<number | string>().as("count"))
          .as("memberCount"),
      ])
      .orderBy("organization.createdAt", "desc")
      .orderBy("organization.id")
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      name: row.name,
      slug: row.slug,
      createdAt: toIsoString(row.createdAt) ?? "",
      memberCount: Number(row.memberCount ?? 0),
    })),
    total: Number(count.total),
  };
}

/** An organization with its members, teams (with member counts) and pending invitations; undefined when there is none. */
export async function findOrganizationDetail(
  db: Kysely<Database>,
  organizationId: string,
  now = new Date(),
): Promise<AdminOrganizationDetail | undefined> {
  const organization = await db
    .selectFrom("organization")
    .select(["id", "name", "slug", "logo", "createdAt"])
    .where("id", "=", organizationId)
    .executeTakeFirst();
  if (!organization) return undefined;
  const [members, teams, invitations] = await Promise.all([
    db
      .selectFrom("member")
      .innerJoin("user", "user.id", "member.userId")
      .select(["member.id", "member.userId", "member.role", "member.createdAt", "user.name", "user.email"])
      .where("member.organizationId", "=", organizationId)
      .orderBy("member.createdAt")
      .orderBy("member.id")
      .execute(),
    db
      .selectFrom("team")
      .select((eb) => [
        "team.id",
        "team.name",
        "team.createdAt",
        eb
          .selectFrom("teamMember")
          .whereRef("teamMember.teamId", "=", "team.id")
          .select(eb.fn.countAll<number | string>().as("count"))
          .as("memberCount"),
      ])
      .where("team.organizationId", "=", organizationId)
      .orderBy("team.name")
      .execute(),
    db
      .selectFrom("invitation")
      .leftJoin("user", "user.id", "invitation.inviterId")
      .select([
        "invitation.id",
        "invitation.email",
        "invitation.role",
        "invitation.expiresAt",
        "invitation.inviterId",
        "user.name as inviterName",
      ])
      .where("invitation.organizationId", "=", organizationId)
      .where("invitation.status", "=", "pending")
      .where("invitation.expiresAt", ">", now.toISOString())
      .orderBy("invitation.createdAt", "desc")
      .execute(),
  ]);
  return {
    organization: {
      id: organization.id,
      name: organization.name,
      slug: organization.slug,
      logo: organization.logo,
      createdAt: toIsoString(organization.createdAt) ?? "",
    },
    members: members.map((row) => ({
      id: row.id,
      userId: row.userId,
      name: row.name,
      email: row.email,
      role: row.role,
      joinedAt: toIsoString(row.createdAt) ?? "",
    })),
    teams: teams.map((row) => ({
      id: row.id,
      name: row.name,
      memberCount: Number(row.memberCount ?? 0),
      createdAt: toIsoString(row.createdAt) ?? "",
    })),
    invitations: invitations.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role ?? "member",
      expiresAt: toIsoString(row.expiresAt) ?? "",
      inviter: row.inviterId && row.inviterName ? { id: row.inviterId, name: row.inviterName } : null,
    })),
  };
}

/**
 * How many platform admins besides `userId` can still use the console: users with the `admin` role and configured
 * administrator ids that belong to a user, not banned now. Read inside the change's transaction, after
 * `lockPlatformAdmins`.
 */
export async function countPlatformAdminsOtherThan(
  db: Kysely<Database>,
  userId: string,
  adminUserIds: readonly string[],
  now = new Date(),
): Promise<number> {
  const rows = await db
    .selectFrom("user")
    .select(["id", "role", "banned", "banExpires"])
    .where("id", "!=", userId)
    .where((eb) =>
      eb.or([eb("role", "like", "%admin%"), ...(adminUserIds.length ? [eb("id", "in", [...adminUserIds])] : [])]),
    )
    .execute();
  return rows.filter((row) => isPlatformAdmin(row, adminUserIds) && !isBannedNow(row, now)).length;
}

/**
 * Makes changes that could remove a platform admin take turns, so two admins demoting each other at once cannot
 * both pass the last-admin check. PostgreSQL: a transaction-scoped advisory lock. SQLite runs one write
 * transaction at a time already.
 */
export async function lockPlatformAdmins(db: Kysely<Database>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(hashtext('atrium:platform-admins'))`.execute(db);
}

/** A user's e-mail (the audit label) and platform role, before a change to them. */
export async function findAuditLabels(
  db: Kysely<Database>,
  userId: string,
): Promise<{ user?: { id: string; email: string }; role?: string }> {
  const row = await db.selectFrom("user").select(["id", "email", "role"]).where("id", "=", userId).executeTakeFirst();
  return row ? { user: { id: row.id, email: row.email }, role: row.role ?? "user" } : {};
}

/** Whose session a token is, for the audit entry of its revocation. */
export async function findSessionOwner(
  db: Kysely<Database>,
  token: string,
): Promise<{ sessionId: string; userId: string; email: string } | undefined> {
  return db
    .selectFrom("session")
    .innerJoin("user", "user.id", "session.userId")
    .select(["session.id as sessionId", "session.userId", "user.email"])
    .where("session.token", "=", token)
    .executeTakeFirst();
}

/** Whether a (lower-case) username is someone's already. */
export async function isTakenUsername(db: Kysely<Database>, username: string): Promise<boolean> {
  return (await db.selectFrom("user").select("id").where("username", "=", username).executeTakeFirst()) !== undefined;
}

export async function findUserByEmail(db: Kysely<Database>, email: string) {
  const columns = ["id", "email", "emailVerified", "role"] as const;
  return db.selectFrom("user").select(columns).where("email", "=", email).executeTakeFirst();
}

export async function setRole(db: Kysely<Database>, userId: string, role: string): Promise<void> {
  await db.updateTable("user").set({ role, updatedAt: new Date().toISOString() }).where("id", "=", userId).execute();
}

/** The user's second factors: whether TOTP is on (better-auth's `twoFactorEnabled`) and how many passkeys they have. */
export async function findSecondFactors(db: Kysely<Database>, userId: string): Promise<AdminSecondFactors> {
  const row = await db
    .selectFrom("user")
    .select((eb) => [
      "user.twoFactorEnabled",
      eb
        .selectFrom("passkey")
        .select((count) => count.fn.countAll<number | string>().as("count"))
        .where("passkey.userId", "=", userId)
        .as("passkeys"),
    ])
    .where("user.id", "=", userId)
    .executeTakeFirst();
  return { totp: Boolean(row?.twoFactorEnabled), passkeys: Number(row?.passkeys ?? 0) };
}

/**
 * Removes every second factor of the user (the TOTP secret and backup codes, the passkeys) and turns TOTP off (0:
 * SQLite's boolean, which PostgreSQL reads as false).
 */
export async function deleteSecondFactors(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom("twoFactor").where("userId", "=", userId).execute();
  await db.deleteFrom("passkey").where("userId", "=", userId).execute();
  await db
    .updateTable("user")
    .set({ twoFactorEnabled: 0, updatedAt: new Date().toISOString() })
    .where("id", "=", userId)
    .execute();
}

/** Signs the user out everywhere: their sessions are deleted. Returns how many there were. */
export async function deleteSessions(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
