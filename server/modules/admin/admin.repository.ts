import { PostgresAdapter, sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from "kysely";
import { isBannedNow, type AdminOrganizationDetail, type AdminOrganizationListQuery, type AdminUserListQuery } from "../../../common/admin.schemas";
import { isPlatformAdmin } from "../../../common/permissions";
import { toIsoString, type Dialect } from "../../db/database";
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

const SORT_COLUMNS = { created: "user.createdAt", name: "user.name", email: "user.email", username: "user.username" } as const;

/** `%term%` for LIKE, with the term's own wildcards escaped (the queries say `escape '\'`). */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A trigram index can narrow a search only from three characters on. */
const TRIGRAM_LENGTH = 3;

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
): Promise<{ rows: UserRow[]; total: number }> {
  const filters = userFilters(dialect, query, now);
  const term = query.q ?? "";
  if (dialect === "postgres") return findPostgresUsers(db, term, filters, query);
  if ([...term].length >= TRIGRAM_LENGTH) return findSqliteUsersByTrigrams(db, term, filters, query);
  const matching = withConditions(db.selectFrom("user"), term ? [sqliteContainsTerm(term), ...filters] : filters);
  const total = await countUsers(matching);
  if (query.offset >= total) return { rows: [], total };
  // Along the sort order's index the page costs about (offset + limit) × users / total reads, each at a random place;
  // reading every user in place and sorting the matches costs about a quarter of that per user.
  const alongSort = total >= 4 * (query.offset + query.limit);
  return { rows: await findPage(matching, "sqlite", query, alongSort), total };
}

/** SQLite, a term too short for the FTS index: each user's columns are compared as stored, since LIKE ignores ASCII case on its own. */
function sqliteContainsTerm(term: string): Expression<SqlBool> {
  const pattern = containsPattern(term);
  const like = (column: "user.name" | "user.email" | "user.username") => sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
  return sql<SqlBool>`(${like("user.name")} or ${like("user.email")} or ${like("user.username")})`;
}

/**
 * SQLite, a term the FTS index can narrow. Its matches are counted first, from the index alone, and the count picks
 * the plan: few matches are looked up user by user; many are tested along the sort order (or along the filters'
 * index), one key lookup per user, until the page is full. Either way no query reads every user for a rare term,
 * nor looks up tens of thousands of matches for a common one.
 */
async function findSqliteUsersByTrigrams(
  db: Kysely<Database>,
  term: string,
  filters: Array<Expression<SqlBool>>,
  query: AdminUserListQuery,
): Promise<{ rows: UserRow[]; total: number }> {
  // Inside double quotes an FTS5 query is one literal phrase: with the trigram tokenizer, a case-insensitive substring.
  const phrase = `"${term.replaceAll('"', '""')}"`;
  const searchIds = sql`select rowid from user_search where user_search match ${phrase}`;
  const sizes = await sql<{ matches: number; users: number | null }>`
    select (select count(*) from user_search where user_search match ${phrase}) as matches, (select max(search_id) from user_search_key) as users`.execute(db);
  const matches = sizes.rows[0]?.matches ?? 0;
  // An upper bound (deleted users leave gaps), read from the end of an index.
  const users = sizes.rows[0]?.users ?? 0;
  if (matches === 0) return { rows: [], total: 0 };
  const byMatch = sql<SqlBool>`${sql.ref("user.id")} in (select user_id from user_search_key where search_id in (${searchIds}))`;
  const byUser = sql<SqlBool>`(select search_id from user_search_key where user_id = ${sql.ref("user.id")}) in (${searchIds})`;
  const matching = (condition: Expression<SqlBool>) => withConditions(db.selectFrom("user"), [condition, ...filters]);
  // Counting along the users pays off when the matches are many, or when the banned filter leaves only a few users to test.
  const total = filters.length === 0 ? matches : await countUsers(matching(matches * 8 > users || query.status === "banned" ? byUser : byMatch));
  if (query.offset >= total) return { rows: [], total };
  // Along the sort order, about (offset + limit) × users / total users are tested before the page is full; looking
  // the matches up costs about twice as much per match. With the banned filter the walk is along its small index.
  const alongSort = query.status === "banned" || (query.offset + query.limit) * users <= 2 * total * matches;
  return { rows: await findPage(matching(alongSort ? byUser : byMatch), "sqlite", query), total };
}

/**
 * PostgreSQL, which plans from its statistics. user_search holds the searched columns lowercased by the same lower()
 * as the pattern: its trigram indexes serve a long term, and a short one reads that narrow table rather than
 * lowercasing every user's columns. Each user has exactly one row there, so without filters the total is counted
 * there alone.
 */
async function findPostgresUsers(
  db: Kysely<Database>,
  term: string,
  filters: Array<Expression<SqlBool>>,
  query: AdminUserListQuery,
): Promise<{ rows: UserRow[]; total: number }> {
  if (!term) {
    const matching = withConditions(db.selectFrom("user"), filters);
    const [rows, total] = await Promise.all([findPage(matching, "postgres", query), countUsers(matching)]);
    return { rows, total };
  }
  const pattern = containsPattern(term);
  const like = (column: string) => sql<SqlBool>`${sql.ref(column)} like lower(${pattern}) escape '\\'`;
  const found = sql<SqlBool>`(${like("name")} or ${like("email")} or ${like("username")})`;
  const matching = withConditions(db.selectFrom("user"), [sql<SqlBool>`${sql.ref("user.id")} in (select user_id from user_search where ${found})`, ...filters]);
  const total =
    filters.length === 0
      ? sql<{ total: string }>`select count(*) as total from user_search where ${found}`.execute(db).then((result) => Number(result.rows[0]?.total ?? 0))
      : countUsers(matching);
  const [rows, count] = await Promise.all([findPage(matching, "postgres", query), total]);
  return { rows, total: count };
}

function withConditions(query: UserListQuery, conditions: Array<Expression<SqlBool>>): UserListQuery {
  return conditions.length ? query.where((eb) => eb.and(conditions)) : query;
}

/** `alongSort: false` keeps SQLite off the sort order's index (`+column`), so it reads the users in place and sorts the matches. */
async function findPage(matching: UserListQuery, dialect: Dialect, query: AdminUserListQuery, alongSort = true): Promise<UserRow[]> {
  const column = SORT_COLUMNS[query.sort];
  const sorted =
    dialect === "postgres" && query.sort === "username"
      ? matching.orderBy(column, (ob) => (query.order === "asc" ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
      : matching.orderBy(alongSort ? sql.ref(column) : sql`+${sql.ref(column)}`, query.order);
  return (await sorted.select(USER_COLUMNS).orderBy("user.id", query.order).limit(query.limit).offset(query.offset).execute()) as UserRow[];
}

async function countUsers(matching: UserListQuery): Promise<number> {
  const { total } = await matching.select((eb) => eb.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow();
  return Number(total);
}

/**
 * The list's filters. Booleans are literals, not parameters (SQLite stores 0/1), and the banned one is written as
 * the partial index `user_banned_createdAt_idx` is, so both databases use it. The role column lists roles separated
 * by commas.
 */
function userFilters(dialect: Dialect, query: AdminUserListQuery, now: Date): Array<Expression<SqlBool>> {
  const filters: Array<Expression<SqlBool>> = [];
  const bool = (value: boolean) => sql.lit(dialect === "postgres" ? value : Number(value));
  const isAdmin = sql<SqlBool>`(',' || ${sql.ref("user.role")} || ',') like '%,admin,%'`;
  if (query.role === "admin") filters.push(isAdmin);
  if (query.role === "user") filters.push(sql<SqlBool>`(${sql.ref("user.role")} is null or not ${isAdmin})`);
  const nowText = now.toISOString();
  if (query.status === "banned") {
    filters.push(
      sql<SqlBool>`${sql.ref("user.banned")} = ${bool(true)}`,
      sql<SqlBool>`(${sql.ref("user.banExpires")} is null or ${sql.ref("user.banExpires")} > ${nowText})`,
    );
  }
  if (query.status === "active") filters.push(sql<SqlBool>`(${sql.ref("user.banned")} is not true or ${sql.ref("user.banExpires")} <= ${nowText})`);
  if (query.verified) filters.push(sql<SqlBool>`${sql.ref("user.emailVerified")} = ${bool(query.verified === "yes")}`);
  if (query.createdFrom) filters.push(sql<SqlBool>`${sql.ref("user.createdAt")} >= ${`${query.createdFrom}T00:00:00.000Z`}`);
  if (query.createdTo) {
    const nextDay = new Date(Date.parse(`${query.createdTo}T00:00:00.000Z`) + 86_400_000).toISOString();
    filters.push(sql<SqlBool>`${sql.ref("user.createdAt")} < ${nextDay}`);
  }
  return filters;
}

export async function findUser(db: Kysely<Database>, userId: string): Promise<UserRow | undefined> {
  return (await db.selectFrom("user").select(USER_COLUMNS).where("user.id", "=", userId).executeTakeFirst()) as UserRow | undefined;
}

/** The user's ways in: the password (`credential`) and each provider, with the e-mail the provider last asserted. */
export async function findSignInMethods(db: Kysely<Database>, userId: string) {
  const rows = await db.selectFrom("account").select(["providerId", "email", "createdAt"]).where("userId", "=", userId).orderBy("createdAt").execute();
  return rows.map((row) => ({ providerId: row.providerId, email: row.email, createdAt: toIsoString(row.createdAt) ?? "" }));
}

export async function findUserOrganizations(db: Kysely<Database>, userId: string) {
  const rows = await db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["organization.id", "organization.name", "organization.slug", "member.role", "member.createdAt"])
    .where("member.userId", "=", userId)
    .orderBy("organization.name")
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, slug: row.slug, role: row.role, joinedAt: toIsoString(row.createdAt) ?? "" }));
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
export async function findOrganizationDetail(db: Kysely<Database>, organizationId: string, now = new Date()): Promise<AdminOrganizationDetail | undefined> {
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
        eb.selectFrom("teamMember").whereRef("teamMember.teamId", "=", "team.id").select(eb.fn.countAll<number | string>().as("count")).as("memberCount"),
      ])
      .where("team.organizationId", "=", organizationId)
      .orderBy("team.name")
      .execute(),
    db
      .selectFrom("invitation")
      .leftJoin("user", "user.id", "invitation.inviterId")
      .select(["invitation.id", "invitation.email", "invitation.role", "invitation.expiresAt", "invitation.inviterId", "user.name as inviterName"])
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
    teams: teams.map((row) => ({ id: row.id, name: row.name, memberCount: Number(row.memberCount ?? 0), createdAt: toIsoString(row.createdAt) ?? "" })),
    invitations: invitations.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role ?? "member",
      expiresAt: toIsoString(row.expiresAt) ?? "",
      inviter: row.inviterName ? { id: row.inviterId, name: row.inviterName } : null,
    })),
  };
}

/**
 * How many platform admins besides `userId` can still use the console: users with the `admin` role and configured
 * administrator ids that belong to a user, not banned now. Read inside the change's transaction, after
 * `lockPlatformAdmins`.
 */
export async function countPlatformAdminsOtherThan(db: Kysely<Database>, userId: string, adminUserIds: readonly string[], now = new Date()): Promise<number> {
  const rows = await db
    .selectFrom("user")
    .select(["id", "role", "banned", "banExpires"])
    .where("id", "!=", userId)
    .where((eb) => eb.or([eb("role", "like", "%admin%"), ...(adminUserIds.length ? [eb("id", "in", [...adminUserIds])] : [])]))
    .execute();
  return rows.filter((row) => isPlatformAdmin(row, adminUserIds) && !isBannedNow(row, now)).length;
}

/**
 * Makes changes that could remove a platform admin take turns, so two admins demoting each other at once cannot
 * both pass the last-admin check. PostgreSQL: a transaction-scoped advisory lock. SQLite runs one write
 * transaction at a time already.
 */
export async function lockPlatformAdmins(db: Kysely<Database>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(hashtext('atrium:platform-admins'))`.execute(db);
}

/** A user's e-mail (the audit label) and platform role, before a change to them. */
export async function findAuditLabels(db: Kysely<Database>, userId: string): Promise<{ user?: { id: string; email: string }; role?: string }> {
  const row = await db.selectFrom("user").select(["id", "email", "role"]).where("id", "=", userId).executeTakeFirst();
  return row ? { user: { id: row.id, email: row.email }, role: row.role ?? "user" } : {};
}

/** Whose session a token is, for the audit entry of its revocation. */
export async function findSessionOwner(db: Kysely<Database>, token: string): Promise<{ sessionId: string; userId: string; email: string } | undefined> {
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

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<{ id: string; email: string; role: string | null } | undefined> {
  return db.selectFrom("user").select(["id", "email", "role"]).where("email", "=", email).executeTakeFirst();
}

export async function setRole(db: Kysely<Database>, userId: string, role: string): Promise<void> {
  await db.updateTable("user").set({ role, updatedAt: new Date().toISOString() }).where("id", "=", userId).execute();
}
