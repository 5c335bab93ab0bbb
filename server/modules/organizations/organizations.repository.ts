import { createHash, randomUUID } from "node:crypto";
import {
  PostgresAdapter,
  sql,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
} from "kysely";
import { toIsoString } from "../../db/database";
import { containsPattern } from "../../db/like-pattern";
import { executePrepared } from "../../db/prepared";
import type { ReadCache } from "../../db/read-cache";
import type { Database, InvitationTable } from "../../db/schema";
import type { OrganizationInvitation } from "../../../common/organization.schemas";
import { searchMemberDirectory } from "./member-directory";
import type { ListMembersQuery, MemberList, OrganizationScope, TeamWithMembers } from "./organizations.schemas";

/**
 * Every function here that reads organization-owned data takes an `OrganizationScope`, which only
 * `findMembership` makes: the one membership query of the app. Hooks that run inside better-auth pass
 * `await currentDatabase(db)` as `db`.
 */

/**
 * Members of the scoped organization with their user and teams, searched by name, e-mail or username: the page, each
 * member's teams, the total and the owners in one statement (on PostgreSQL each round trip costs more than the reads
 * themselves). Only a page with no rows asks for the total and the owners again.
 */
export async function findMembers(
  db: Kysely<Database>,
  scope: OrganizationScope,
  query: ListMembersQuery,
  cache?: ReadCache,
): Promise<MemberList> {
  const { organizationId } = scope;
  // Given the read cache (a read), a search scans the organization's directory in memory (ADR 0037).
  const found =
    query.search && cache ? await searchMemberDirectory(db, organizationId, query.search, cache) : undefined;
  const pattern = !found && query.search ? containsPattern(query.search) : "";
  // PostgreSQL searches member_search (migration 0029), whose text separates the columns with chr(1): a term holding
  // that character searches the joined users instead.
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const searchTable = pattern && isPostgres && !pattern.includes("\u0001");
  let base = db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .where("member.organizationId", "=", organizationId);
  if (pattern && !searchTable) {
    const like = (column: "user.name" | "user.email" | "user.username") =>
      sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    base = base.where(sql<SqlBool>`(${like("user.name")} or ${like("user.email")} or ${like("user.username")})`);
  }
  const searched = sql<SqlBool>`member_search.organization_id = ${organizationId}
    and member_search.search like ${pattern} escape '\\'`;
  const counts = countColumns(organizationId, isPostgres, {
    table: searchTable ? searched : undefined,
    joined: pattern && !searchTable ? base : undefined,
    found: found?.length,
  });
  // The page's ids come first, from an index in the list's order (migrations 0027 and 0029), and only they are joined:
  // a deep page skips index entries, not joined rows. Materialized, so every plan reads them once, first.
  const pageIds = found
    ? idsOf(isPostgres, found.slice(query.offset, query.offset + query.limit))
    : searchTable
      ? pageOfSearch(searched, query)
      : pageOf(pattern ? base : membershipsOf(db, organizationId), query);
  const page = pageJoined(db, pageIds)
    .select([
      "member.id",
      "member.userId",
      "member.role",
      "member.createdAt",
      "user.name",
      "user.email",
      "user.image",
      "user.username",
      // The directory's people (server/modules/scim): its own table, read here so the list needs no second query.
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom("scim_user")
              .select("scim_user.id")
              .whereRef("scim_user.user_id", "=", "member.userId")
              .whereRef("scim_user.organization_id", "=", "member.organizationId"),
          )
          .as("provisioned"),
      teamsOfMember(isPostgres).as("teams"),
      ...counts,
    ])
    .orderBy("member.createdAt", "asc")
    .orderBy("member.id", "asc");
  // Without a search, one plan is right for every organization and offset: PostgreSQL keeps it (server/db/prepared.ts).
  // So it is for the page of a search found in memory: its ids come as one parameter.
  const rows = pattern ? await page.execute() : await executePrepared(db, page);
  const counted = await countedOf(db, organizationId, counts, rows[0]);
  return {
    members: rows.map((row) => ({
      id: row.id,
      userId: row.userId,
      role: row.role,
      createdAt: toIsoString(row.createdAt) ?? "",
      user: { id: row.userId, name: row.name, email: row.email, image: row.image, username: row.username },
      teams: typeof row.teams === "string" ? (JSON.parse(row.teams) as MemberTeam[]) : row.teams,
      provisioned: Boolean(row.provisioned),
    })),
    total: Number(counted.total),
    ownerCount: Number(counted.ownerCount),
    limit: query.limit,
    offset: query.offset,
  };
}

type MemberTeam = { id: string; name: string };

/**
 * A page of the scoped organization's members as better-auth's `organization/list-members` answers one, with the
 * organization's total, from the members list's own prepared statement (the page's ids first, in the list's order).
 */
export async function findMemberPage(
  db: Kysely<Database>,
  scope: OrganizationScope,
  query: Pick<ListMembersQuery, "limit" | "offset">,
): Promise<{ members: BetterAuthMember[]; total: number }> {
  const { organizationId } = scope;
  const counts = countColumns(organizationId, db.getExecutor().adapter instanceof PostgresAdapter, {});
  const page = pageJoined(db, pageOf(membershipsOf(db, organizationId), query))
    .select(["member.id", "member.role", "member.userId", "member.createdAt", "user.name", "user.email", "user.image"])
    .select(counts)
    .orderBy("member.createdAt", "asc")
    .orderBy("member.id", "asc");
  const rows = await executePrepared(db, page);
  const counted = await countedOf(db, organizationId, counts, rows[0]);
  return {
    members: rows.map((row) => ({
      id: row.id,
      organizationId,
      userId: row.userId,
      role: row.role,
      createdAt: toIsoString(row.createdAt) ?? "",
      user: { id: row.userId, name: row.name, email: row.email, image: row.image },
    })),
    total: Number(counted.total),
  };
}

type BetterAuthMember = {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: string;
  user: { id: string; name: string; email: string; image: string | null };
};

const membershipsOf = (db: Kysely<Database>, organizationId: string) =>
  db.selectFrom("member").where("member.organizationId", "=", organizationId);

/** The ids of a page of memberships found in memory, in the list's order, as rows of one bound parameter. */
function idsOf(isPostgres: boolean, ids: readonly string[]) {
  return isPostgres
    ? sql<{ id: string }>`(select unnest(cast(${ids} as text[])) as id)`
    : sql<{ id: string }>`(select value as id from json_each(${JSON.stringify(ids)}))`;
}

/** The page's memberships and users, joined by key to its ids, which are materialized: every plan reads them first. */
function pageJoined(
  db: Kysely<Database>,
  pageIds: ReturnType<typeof pageOf> | ReturnType<typeof pageOfSearch> | ReturnType<typeof idsOf>,
) {
  return db
    .with(
      (cte) => cte("page").materialized(),
      () => pageIds,
    )
    .selectFrom("page")
    .innerJoin("member", "member.id", "page.id")
    .innerJoin("user", "user.id", "member.userId");
}

/**
 * The counts a page's first row carries, or read alone for a page past the end. On PostgreSQL an unfiltered total
 * summed from more than `MEMBER_COUNT_ROWS_KEPT` rows has them folded into one.
 */
async function countedOf<Row extends { total: string | number }>(
  db: Kysely<Database>,
  organizationId: string,
  counts: ReturnType<typeof countColumns>,
  first: Row | undefined,
) {
  const counted = first ?? (await db.selectNoFrom(counts).executeTakeFirstOrThrow());
  if ("countRows" in counted && Number(counted.countRows) > MEMBER_COUNT_ROWS_KEPT)
    await foldMemberCount(db, organizationId);
  return counted;
}

/**
 * The list's total and the organization's owners as columns, for the page's statement or one of their own: the
 * total of a search counts its matches, in `member_search` (`table`) or among the joined users (`joined`), or is
 * how many the directory in memory `found`.
 */
function countColumns(
  organizationId: string,
  isPostgres: boolean,
  search: {
    table?: RawBuilder<SqlBool>;
    joined?: SelectQueryBuilder<Database, "member" | "user", object>;
    found?: number;
  },
) {
  const searched = search.table !== undefined || search.joined !== undefined || search.found !== undefined;
  const total: RawBuilder<string | number> = search.table
    ? sql`(select count(*) from member_search where ${search.table})`
    : search.joined
      ? sql`(${search.joined.select((eb) => eb.fn.countAll().as("count"))})`
      : search.found !== undefined
        ? sql`cast(${search.found} as integer)`
        : isPostgres
          ? sql`(select coalesce(sum(delta), 0) from member_count_delta where organization_id = ${organizationId})`
          : // Without a search, the memberships alone: every one has its user (a foreign key), so the count reads the
            // organization's index entries and not the users.
            sql`(select count(*) from member where "organizationId" = ${organizationId})`;
  // PostgreSQL: how many rows of `member_count_delta` (migration 0033) the unfiltered total was summed from.
  const summedRows = sql<string>`(select count(*) from member_count_delta where organization_id = ${organizationId})`;
  return [
    total.as("total"),
    // Owners of the whole organization, whatever the search: the last one can neither leave nor be demoted. The
    // first pattern is a literal, the condition of migration 0031's index of owners; roles are separated by commas.
    sql<string | number>`(select count(*) from member where "organizationId" = ${organizationId}
      and role like '%owner%' and (',' || replace(role, ' ', '') || ',') like '%,owner,%')`.as("ownerCount"),
    ...(isPostgres && !searched ? [summedRows.as("countRows")] : []),
  ];
}

/** A member's teams in the organization, by name, as a JSON array (SQLite answers it as text). */
function teamsOfMember(isPostgres: boolean): RawBuilder<MemberTeam[] | string> {
  const teams = sql`from "teamMember" inner join team on team.id = "teamMember"."teamId"
    where "teamMember"."userId" = member."userId" and team."organizationId" = member."organizationId"`;
  return isPostgres
    ? sql`coalesce((select json_agg(json_build_object('id', team.id, 'name', team.name)
        order by team.name, team.id) ${teams}), '[]')`
    : sql`(select json_group_array(json_object('id', team.id, 'name', team.name)
        order by team.name, team.id) ${teams})`;
}

/** Rows of an organization's member count (migration 0033) past which a read folds them into one. */
const MEMBER_COUNT_ROWS_KEPT = 100;

/**
 * Folds an organization's rows of member count into one, in one statement: a concurrent fold takes only the rows the
 * other did not, and a concurrent write's row, committed or not, is kept apart, so the sum stays exact.
 */
async function foldMemberCount(db: Kysely<Database>, organizationId: string): Promise<void> {
  await sql`with folded as (delete from member_count_delta where organization_id = ${organizationId} returning delta)
    insert into member_count_delta (organization_id, delta)
    select ${organizationId}, coalesce(sum(delta), 0) from folded`.execute(db);
}

/** The ids of a page of the memberships a PostgreSQL search finds (migration 0029), in the members list's order. */
function pageOfSearch(searched: RawBuilder<SqlBool>, query: ListMembersQuery) {
  return sql<{ id: string }>`(select member_id as id from member_search where ${searched}
    order by "createdAt", member_id limit ${query.limit} offset ${query.offset})`;
}

/** The ids of a page of `rows`, the organization's memberships (searched among the joined users or not), in order. */
function pageOf(rows: SelectQueryBuilder<Database, "member" | "user", object>, query: ListMembersQuery) {
  return rows
    .select("member.id")
    .orderBy("member.createdAt", "asc")
    .orderBy("member.id", "asc")
    .limit(query.limit)
    .offset(query.offset);
}

/** The user's membership of the organization as a scope (their roles split), or undefined when they are not a member. */
export async function findMembership(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<OrganizationScope | undefined> {
  const member = await db
    .selectFrom("member")
    .select(["id", "role"])
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return (
    member && { organizationId, userId, memberId: member.id, roles: member.role.split(",").map((role) => role.trim()) }
  );
}

/** Clears the organization from every session of the user where it was the active one. */
export async function clearActiveOrganization(
  db: Kysely<Database>,
  userId: string,
  organizationId: string,
): Promise<void> {
  await db
    .updateTable("session")
    .set({ activeOrganizationId: null, activeTeamId: null })
    .where("userId", "=", userId)
    .where("activeOrganizationId", "=", organizationId)
    .execute();
}

/** The scoped organization's name. */
export async function findOrganizationName(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("organization")
    .select("name")
    .where("id", "=", scope.organizationId)
    .executeTakeFirst();
  return row?.name;
}

/** Renames the scoped organization's teams called `from` to `to`. */
export async function renameTeamsNamed(
  db: Kysely<Database>,
  scope: OrganizationScope,
  from: string,
  to: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable("team")
    .set({ name: to, updatedAt: now.toISOString() })
    .where("organizationId", "=", scope.organizationId)
    .where("name", "=", from)
    .execute();
}

/** Whether the scoped user is a member of this team of the scoped organization. */
export async function isTeamMember(db: Kysely<Database>, scope: OrganizationScope, teamId: string): Promise<boolean> {
  const row = await db
    .selectFrom("teamMember")
    .innerJoin("team", "team.id", "teamMember.teamId")
    .select("teamMember.id")
    .where("team.organizationId", "=", scope.organizationId)
    .where("teamMember.teamId", "=", teamId)
    .where("teamMember.userId", "=", scope.userId)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * An invitation by id with the names its page shows before anyone signs in: its link is the credential, so this
 * is the one read without a scope. (An invitation goes with its organization and with its inviter's account; one an
 * API key sent has no inviter.)
 */
export async function findInvitation(db: Kysely<Database>, invitationId: string) {
  return db
    .selectFrom("invitation")
    .innerJoin("organization", "organization.id", "invitation.organizationId")
    .leftJoin("user", "user.id", "invitation.inviterId")
    .select([
      "invitation.status",
      "invitation.expiresAt",
      "organization.name as organizationName",
      "user.name as inviterName",
    ])
    .where("invitation.id", "=", invitationId)
    .executeTakeFirst();
}

/** Teams of the scoped organization with their members' names: one query for teams, one for memberships. */
export async function findTeamsWithMembers(db: Kysely<Database>, scope: OrganizationScope): Promise<TeamWithMembers[]> {
  const teams = await db
    .selectFrom("team")
    .select(["id", "name", "createdAt"])
    .where("organizationId", "=", scope.organizationId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  const memberships = teams.length
    ? await db
        .selectFrom("teamMember")
        .innerJoin("user", "user.id", "teamMember.userId")
        .where(
          "teamMember.teamId",
          "in",
          teams.map((team) => team.id),
        )
        .select(["teamMember.teamId", "user.id as userId", "user.name", "user.email", "user.image"])
        .orderBy("user.name")
        .execute()
    : [];
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    createdAt: toIsoString(team.createdAt) ?? "",
    members: memberships
      .filter((row) => row.teamId === team.id)
      .map(({ userId, name, email, image }) => ({ userId, name, email, image })),
  }));
}

/**
 * Closes pending invitations of this address that have expired: better-auth ignores them when it looks for
 * a pending one, but the one-pending-invitation index still counts them.
 */
export async function cancelExpiredPendingInvitations(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  email: string,
  now: Date,
): Promise<void> {
  const rows = await db
    .selectFrom("invitation")
    .select(["id", "expiresAt"])
    .where("organizationId", "=", scope.organizationId)
    .where("email", "=", email.toLowerCase())
    .where("status", "=", "pending")
    .execute();
  const expired = rows.filter((row) => new Date(row.expiresAt).getTime() <= now.getTime()).map((row) => row.id);
  if (expired.length === 0) return;
  await db
    .updateTable("invitation")
    .set({ status: "canceled" })
    .where("organizationId", "=", scope.organizationId)
    .where("id", "in", expired)
    .where("status", "=", "pending")
    .execute();
}

/** The role of the member an identifier names in the scoped organization: an e-mail when it contains '@', else a member id. */
export async function findMemberRoleByIdOrEmail(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  memberIdOrEmail: string,
): Promise<string | undefined> {
  const query = db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .select("member.role")
    .where("member.organizationId", "=", scope.organizationId);
  const row = await (
    memberIdOrEmail.includes("@")
      ? query.where("user.email", "=", memberIdOrEmail.toLowerCase())
      : query.where("member.id", "=", memberIdOrEmail)
  ).executeTakeFirst();
  return row?.role;
}

export async function findOrganizationIdBySlug(db: Kysely<Database>, slug: string): Promise<string | undefined> {
  const row = await db.selectFrom("organization").select("id").where("slug", "=", slug).executeTakeFirst();
  return row?.id;
}

export async function organizationExists(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const row = await db.selectFrom("organization").select("id").where("id", "=", organizationId).executeTakeFirst();
  return Boolean(row);
}

/**
 * Locks the team row for the rest of the transaction (a no-op update), so concurrent writes to the same
 * team's memberships take turns.
 */
export async function lockTeam(db: Kysely<Database>, teamId: string): Promise<void> {
  await db
    .updateTable("team")
    .set((eb) => ({ memberCount: eb.ref("memberCount") }))
    .where("id", "=", teamId)
    .execute();
}

/**
 * Locks the organization's row for the rest of the transaction, so the writes counted against its plan's limits
 * (invitations, members, teams) take turns: each counts once the one before it has committed. Taken inside the
 * transaction that writes, before anything else of the organization is locked; released by the commit.
 * PostgreSQL: `SELECT … FOR NO KEY UPDATE`, which waits for another holder of the lock but not for rows merely
 * referencing the organization (their foreign keys take a key-share lock). SQLite: a process's one connection
 * runs one transaction at a time already, and its single writer refuses a transaction that counted before
 * another process committed (SQLITE_BUSY_SNAPSHOT in WAL mode).
 */
export async function lockOrganization(db: Kysely<Database>, organizationId: string): Promise<void> {
  await lockOrganizations(db, [organizationId]);
}

/** A user's e-mail, the label of the audit entries about their membership. */
export async function findMemberLabel(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  return (await db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirst())?.email;
}

/** Whether another team of the organization (than `exceptTeamId`) has this name, trimmed and without case. */
export async function hasTeamNamed(
  db: Kysely<Database>,
  organizationId: string,
  name: string,
  exceptTeamId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom("team")
    .select("id")
    .where("organizationId", "=", organizationId)
    .where((eb) => eb(eb.fn("lower", [eb.fn("trim", ["name"])]), "=", name.trim().toLowerCase()));
  if (exceptTeamId) query = query.where("id", "!=", exceptTeamId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** A team's name and organization, read before it is renamed or removed, for the audit entry. */
export async function findTeamLabel(
  db: Kysely<Database>,
  teamId: string,
): Promise<{ id: string; name: string; organizationId: string } | undefined> {
  return db.selectFrom("team").select(["id", "name", "organizationId"]).where("id", "=", teamId).executeTakeFirst();
}

/**
 * The seats an organization uses: its members plus its pending, unexpired invitations (what the billing module
 * counts against a plan's seats). Inside a plan-limit check, call it after `lockOrganization`.
 */
export async function countSeats(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  now = new Date(),
): Promise<number> {
  const members = await db
    .selectFrom("member")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("organizationId", "=", scope.organizationId)
    .executeTakeFirstOrThrow();
  const invitations = await db
    .selectFrom("invitation")
    .select("expiresAt")
    .where("organizationId", "=", scope.organizationId)
    .where("status", "=", "pending")
    .execute();
  const pending = invitations.filter((invitation) => new Date(invitation.expiresAt).getTime() > now.getTime());
  return Number(members.count) + pending.length;
}

/** How many teams an organization has (counted against a plan's team limit). */
export async function countTeams(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
): Promise<number> {
  const row = await db
    .selectFrom("team")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("organizationId", "=", scope.organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whether an address has a pending invitation to the organization (it holds a seat already). */
export async function hasPendingInvitation(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  email: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("invitation")
    .select("id")
    .where("organizationId", "=", scope.organizationId)
    .where("email", "=", email.toLowerCase())
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Boolean(row);
}

/** The organization an invitation is to, by the invitation's id (what its acceptance carries). */
export async function findInvitationOrganizationId(
  db: Kysely<Database>,
  invitationId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("invitation")
    .select("organizationId")
    .where("id", "=", invitationId)
    .executeTakeFirst();
  return row?.organizationId;
}

/**
 * Locks the organizations' rows until the transaction ends, in id order so that two callers never wait on each
 * other. Every change that can take an owner away (deleting an account, a member leaving, removed or re-roled)
 * takes it first, so each one's owner count is read after the other has committed. PostgreSQL only: SQLite
 * runs one write transaction at a time already.
 */
export async function lockOrganizations(db: Kysely<Database>, organizationIds: readonly string[]): Promise<void> {
  if (organizationIds.length === 0 || !(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await db
    .selectFrom("organization")
    .select("id")
    .where("id", "in", [...organizationIds])
    .orderBy("id")
    .forNoKeyUpdate()
    .execute();
}

/** The ids of the organizations a user is a member of. */
export async function findOrganizationIdsOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("member").select("organizationId").where("userId", "=", userId).execute();
  return rows.map((row) => row.organizationId);
}

/** The organizations a user is a member of, by name, with every member's user id and role. */
export async function findOrganizationsWithMembersOf(
  db: Kysely<Database>,
  userId: string,
): Promise<Array<{ id: string; name: string; slug: string; members: Array<{ userId: string; role: string }> }>> {
  const organizations = await db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["organization.id", "organization.name", "organization.slug"])
    .where("member.userId", "=", userId)
    .orderBy("organization.name")
    .orderBy("organization.id")
    .execute();
  if (organizations.length === 0) return [];
  const members = await db
    .selectFrom("member")
    .select(["organizationId", "userId", "role"])
    .where(
      "organizationId",
      "in",
      organizations.map((organization) => organization.id),
    )
    .execute();
  return organizations.map((organization) => ({
    ...organization,
    members: members.filter((member) => member.organizationId === organization.id),
  }));
}

/** Deletes an organization; its members, teams and invitations go with it (foreign keys). */
export async function deleteOrganizationRow(db: Kysely<Database>, organizationId: string): Promise<void> {
  await db.deleteFrom("organization").where("id", "=", organizationId).execute();
}

/** Sets a membership's role (comma-separated roles). */
export async function updateMemberRole(db: Kysely<Database>, memberId: string, role: string): Promise<void> {
  await db.updateTable("member").set({ role }).where("id", "=", memberId).execute();
}

/**
 * The writes of teams and memberships outside better-auth (an API key's, a directory's), which keep what better-auth
 * keeps: a team's `memberCount`, and each team membership's `membershipKey`.
 */

/** A team as better-auth answers it. */
export type TeamRow = { id: string; name: string; organizationId: string; createdAt: string; updatedAt: string | null };

export async function insertTeam(
  db: Kysely<Database>,
  team: { organizationId: string; name: string },
): Promise<TeamRow> {
  const now = new Date().toISOString();
  const row = {
    id: randomUUID(),
    name: team.name,
    organizationId: team.organizationId,
    createdAt: now,
    updatedAt: now,
  };
  await db
    .insertInto("team")
    .values({ ...row, memberCount: 0 })
    .execute();
  return row;
}

export async function renameTeam(db: Kysely<Database>, teamId: string, name: string): Promise<void> {
  await db.updateTable("team").set({ name, updatedAt: new Date().toISOString() }).where("id", "=", teamId).execute();
}

/** Deletes a team and its memberships (its members stay in the organization). */
export async function deleteTeam(db: Kysely<Database>, teamId: string): Promise<void> {
  await db.deleteFrom("teamMember").where("teamId", "=", teamId).execute();
  await db.deleteFrom("team").where("id", "=", teamId).execute();
}

/** better-auth's key of a team membership (its organization adapter): the pair's SHA-256, base64url. */
const membershipKeyOf = (teamId: string, userId: string) =>
  createHash("sha256")
    .update(JSON.stringify([teamId, userId]))
    .digest("base64url");

async function syncTeamMemberCount(db: Kysely<Database>, teamId: string): Promise<void> {
  const count = await db
    .selectFrom("teamMember")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("teamId", "=", teamId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable("team")
    .set({ memberCount: Number(count.n) })
    .where("id", "=", teamId)
    .execute();
}

/** A team membership as better-auth answers it. */
export type TeamMemberRow = { id: string; teamId: string; userId: string; createdAt: string };

export async function insertTeamMember(db: Kysely<Database>, teamId: string, userId: string): Promise<TeamMemberRow> {
  const row = { id: randomUUID(), teamId, userId, createdAt: new Date().toISOString() };
  await db
    .insertInto("teamMember")
    .values({ ...row, membershipKey: membershipKeyOf(teamId, userId) })
    .execute();
  await syncTeamMemberCount(db, teamId);
  return row;
}

export async function deleteTeamMember(db: Kysely<Database>, teamId: string, userId: string): Promise<void> {
  await db.deleteFrom("teamMember").where("teamId", "=", teamId).where("userId", "=", userId).execute();
  await syncTeamMemberCount(db, teamId);
}

/** A user's membership of a team, or undefined. */
export async function findTeamMember(
  db: Kysely<Database>,
  teamId: string,
  userId: string,
): Promise<TeamMemberRow | undefined> {
  const row = await db
    .selectFrom("teamMember")
    .select(["id", "teamId", "userId", "createdAt"])
    .where("teamId", "=", teamId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row && { ...row, createdAt: toIsoString(row.createdAt) ?? "" };
}

/** A team of the scoped organization, or undefined. */
export async function findTeam(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  teamId: string,
): Promise<TeamRow | undefined> {
  const row = await db
    .selectFrom("team")
    .select(["id", "name", "organizationId", "createdAt", "updatedAt"])
    .where("organizationId", "=", scope.organizationId)
    .where("id", "=", teamId)
    .executeTakeFirst();
  return row && { ...row, createdAt: toIsoString(row.createdAt) ?? "", updatedAt: toIsoString(row.updatedAt) };
}

/**
 * Takes a deleted team out of the organization's pending invitations (an invitation names its teams as a
 * comma-separated list), as better-auth does when it deletes a team.
 */
export async function removeTeamFromPendingInvitations(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  teamId: string,
): Promise<void> {
  const invitations = await db
    .selectFrom("invitation")
    .select(["id", "teamId"])
    .where("organizationId", "=", scope.organizationId)
    .where("status", "=", "pending")
    .where("teamId", "is not", null)
    .execute();
  for (const invitation of invitations) {
    const teamIds = (invitation.teamId ?? "").split(",");
    if (!teamIds.includes(teamId)) continue;
    const remaining = teamIds.filter((id) => id !== teamId).join(",");
    await db
      .updateTable("invitation")
      .set({ teamId: remaining || null })
      .where("id", "=", invitation.id)
      .execute();
  }
}

/** A membership as better-auth answers it. */
export type MemberRow = { id: string; organizationId: string; userId: string; role: string; createdAt: string };

/** A member of the scoped organization by the membership's id, or undefined. */
export async function findMember(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  memberId: string,
): Promise<MemberRow | undefined> {
  const row = await db
    .selectFrom("member")
    .select(["id", "organizationId", "userId", "role", "createdAt"])
    .where("organizationId", "=", scope.organizationId)
    .where("id", "=", memberId)
    .executeTakeFirst();
  return row && { ...row, createdAt: toIsoString(row.createdAt) ?? "" };
}

/** Whether the address is a member's of the scoped organization (better-auth keeps addresses lower-case). */
export async function isMemberAddress(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  email: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .select("member.id")
    .where("member.organizationId", "=", scope.organizationId)
    .where("user.email", "=", email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** An invitation as better-auth answers it; `inviterId` is null when an API key sent it. */
export type InvitationRow = OrganizationInvitation;

const invitationColumns = [
  "id",
  "organizationId",
  "email",
  "role",
  "teamId",
  "status",
  "expiresAt",
  "createdAt",
  "inviterId",
] as const;

function toInvitationRow(row: Selectable<InvitationTable>): InvitationRow {
  return {
    ...row,
    role: row.role ?? "member",
    expiresAt: toIsoString(row.expiresAt) ?? "",
    createdAt: toIsoString(row.createdAt) ?? "",
  };
}

/** The scoped organization's pending invitations that have not expired, newest first (those better-auth counts). */
export async function findPendingInvitations(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  now = new Date(),
): Promise<InvitationRow[]> {
  const rows = await db
    .selectFrom("invitation")
    .select(invitationColumns)
    .where("organizationId", "=", scope.organizationId)
    .where("status", "=", "pending")
    .orderBy("createdAt", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toInvitationRow).filter((row) => Date.parse(row.expiresAt) > now.getTime());
}

/** An invitation of the scoped organization, whatever its state, or undefined. */
export async function findOrganizationInvitation(
  db: Kysely<Database>,
  scope: Pick<OrganizationScope, "organizationId">,
  invitationId: string,
): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom("invitation")
    .select(invitationColumns)
    .where("organizationId", "=", scope.organizationId)
    .where("id", "=", invitationId)
    .executeTakeFirst();
  return row && toInvitationRow(row);
}

/** An invitation an API key sent (it has no inviter), with its organization's name and slug, or undefined. */
export async function findInvitationWithoutInviter(db: Kysely<Database>, invitationId: string) {
  const row = await db
    .selectFrom("invitation")
    .innerJoin("organization", "organization.id", "invitation.organizationId")
    .select(invitationColumns.map((column) => `invitation.${column}` as const))
    .select(["organization.name as organizationName", "organization.slug as organizationSlug"])
    .where("invitation.id", "=", invitationId)
    .where("invitation.inviterId", "is", null)
    .executeTakeFirst();
  if (!row) return undefined;
  const { organizationName, organizationSlug, ...invitation } = row;
  return { ...toInvitationRow(invitation), organizationName, organizationSlug };
}

/** A pending invitation from the organization itself (no inviter: an API key sent it). */
export async function insertInvitation(
  db: Kysely<Database>,
  invitation: Pick<InvitationRow, "organizationId" | "email" | "role" | "teamId" | "expiresAt" | "createdAt">,
): Promise<InvitationRow> {
  const row: InvitationRow = { ...invitation, id: randomUUID(), status: "pending", inviterId: null };
  await db.insertInto("invitation").values(row).execute();
  return row;
}

export async function setInvitationStatus(
  db: Kysely<Database>,
  invitationId: string,
  status: InvitationRow["status"],
): Promise<void> {
  await db.updateTable("invitation").set({ status }).where("id", "=", invitationId).execute();
}

/** Ends a membership: the person leaves the organization's teams and the organization. */
export async function deleteMembership(db: Kysely<Database>, organizationId: string, userId: string): Promise<void> {
  const teamIds = await db
    .selectFrom("teamMember")
    .innerJoin("team", "team.id", "teamMember.teamId")
    .select("team.id")
    .where("team.organizationId", "=", organizationId)
    .where("teamMember.userId", "=", userId)
    .execute();
  for (const { id } of teamIds) await deleteTeamMember(db, id, userId);
  await db.deleteFrom("member").where("organizationId", "=", organizationId).where("userId", "=", userId).execute();
}

/** Adds a user to the organization with `role`, outside better-auth (an operator's change; its caller audits it). */
export async function insertMember(
  db: Kysely<Database>,
  member: { organizationId: string; userId: string; role: string },
): Promise<void> {
  await db
    .insertInto("member")
    .values({ id: randomUUID(), ...member, createdAt: new Date().toISOString() })
    .execute();
}

/**
 * `findMembership` and the organization's security policy in one statement, for the checks every request about an
 * organization makes (the policy costs no query of its own while it is off).
 */
export async function findMembershipUnderPolicy(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<{ scope: OrganizationScope; requireTwoFactor: boolean } | undefined> {
  const member = await db
    .selectFrom("member")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["member.id", "member.role", "organization.requireTwoFactor"])
    .where("member.organizationId", "=", organizationId)
    .where("member.userId", "=", userId)
    .executeTakeFirst();
  if (!member) return undefined;
  const roles = member.role.split(",").map((role) => role.trim());
  return {
    scope: { organizationId, userId, memberId: member.id, roles },
    requireTwoFactor: Boolean(member.requireTwoFactor),
  };
}

/** Whether the organization requires a second factor of its members (its security policy, migration 0017). */
export async function requiresTwoFactor(db: Kysely<Database>, scope: OrganizationScope): Promise<boolean> {
  const row = await db
    .selectFrom("organization")
    .select("requireTwoFactor")
    .where("id", "=", scope.organizationId)
    .executeTakeFirst();
  return Boolean(row?.requireTwoFactor);
}

/**
 * Sets the security policy; the organization's update drops the replayed reads about it (migration 0009's trigger).
 * Written as 1 or 0: SQLite stores booleans as integers, and PostgreSQL reads the untyped '1' or '0' as a boolean.
 */
export async function setRequireTwoFactor(db: Kysely<Database>, scope: OrganizationScope, value: boolean) {
  await db
    .updateTable("organization")
    .set({ requireTwoFactor: Number(value) })
    .where("id", "=", scope.organizationId)
    .execute();
}

/** Whether the organization requires SSO of its verified domains (migration 0018). */
export async function requiresSso(db: Kysely<Database>, scope: Pick<OrganizationScope, "organizationId">) {
  const row = await db
    .selectFrom("organization")
    .select("requireSso")
    .where("id", "=", scope.organizationId)
    .executeTakeFirst();
  return Boolean(row?.requireSso);
}

/** Sets the SSO policy (1 or 0, as `setRequireTwoFactor`). */
export async function setRequireSso(db: Kysely<Database>, scope: OrganizationScope, value: boolean) {
  await db
    .updateTable("organization")
    .set({ requireSso: Number(value) })
    .where("id", "=", scope.organizationId)
    .execute();
}

/** Whether people on the organization's verified domains may join it without an invitation (migration 0022). */
export async function allowsDomainJoin(db: Kysely<Database>, scope: Pick<OrganizationScope, "organizationId">) {
  const row = await db
    .selectFrom("organization")
    .select("allowDomainJoin")
    .where("id", "=", scope.organizationId)
    .executeTakeFirst();
  return Boolean(row?.allowDomainJoin);
}

/** Sets the domain-join policy (1 or 0, as `setRequireTwoFactor`). */
export async function setAllowDomainJoin(db: Kysely<Database>, scope: OrganizationScope, value: boolean) {
  await db
    .updateTable("organization")
    .set({ allowDomainJoin: Number(value) })
    .where("id", "=", scope.organizationId)
    .execute();
}

/** Whether one of the organization's SSO providers has its domain verified (@better-auth/sso's table). */
export async function hasVerifiedSsoProvider(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom("ssoProvider")
    .select("id")
    .where("organizationId", "=", organizationId)
    .where("domainVerified", "=", 1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether one of the organization's SSO providers with a verified domain has signed someone in since it was
 * registered or last changed (`firstSignInAt`, migration 0023): the connection was tested.
 */
export async function hasTestedSsoProvider(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom("ssoProvider")
    .select("id")
    .where("organizationId", "=", organizationId)
    .where("domainVerified", "=", 1)
    .where("firstSignInAt", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the user has a second factor: TOTP turned on (better-auth's `twoFactorEnabled`) or at least one passkey. */
export async function hasSecondFactor(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("user")
    .select((eb) => [
      "user.twoFactorEnabled",
      eb.exists(eb.selectFrom("passkey").select("passkey.id").where("passkey.userId", "=", userId)).as("hasPasskey"),
    ])
    .where("user.id", "=", userId)
    .executeTakeFirst();
  return Boolean(row?.twoFactorEnabled) || Boolean(row?.hasPasskey);
}

/** The organization an invitation belongs to (a call that names the invitation, not the organization). */
export async function findOrganizationIdOfInvitation(
  db: Kysely<Database>,
  invitationId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("invitation")
    .select("organizationId")
    .where("id", "=", invitationId)
    .executeTakeFirst();
  return row?.organizationId;
}
