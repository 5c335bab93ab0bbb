import { randomUUID } from "node:crypto";
import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from "kysely";
import { containsPattern, escapeLike } from "../../db/like-pattern";
import type { Database } from "../../db/schema";
import { insertTeam as insertTeamRow, renameTeam } from "../organizations";
import type { FilterTerm } from "./scim.filter";

/**
 * Directory sync's queries. Every read of people or teams takes the organization the SCIM token is bound to, so one
 * organization's token never finds another's rows.
 */

export type TokenRow = {
  id: string;
  organization_id: string;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
};

const TOKEN_COLUMNS = ["id", "organization_id", "name", "created_at", "last_used_at", "revoked_at"] as const;

export async function insertToken(
  db: Kysely<Database>,
  token: { organizationId: string; name: string; tokenHash: string; createdBy: string },
): Promise<TokenRow> {
  const row = {
    id: randomUUID(),
    organization_id: token.organizationId,
    name: token.name,
    token_hash: token.tokenHash,
    created_by: token.createdBy,
    created_at: new Date().toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto("scim_token").values(row).execute();
  return row;
}

/** The unrevoked token with this digest. */
export async function findActiveTokenByHash(db: Kysely<Database>, tokenHash: string): Promise<TokenRow | undefined> {
  return db
    .selectFrom("scim_token")
    .select(TOKEN_COLUMNS)
    .where("token_hash", "=", tokenHash)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
}

export async function findTokens(db: Kysely<Database>, organizationId: string): Promise<TokenRow[]> {
  return db
    .selectFrom("scim_token")
    .select(TOKEN_COLUMNS)
    .where("organization_id", "=", organizationId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
}

export async function findToken(
  db: Kysely<Database>,
  organizationId: string,
  tokenId: string,
): Promise<TokenRow | undefined> {
  return db
    .selectFrom("scim_token")
    .select(TOKEN_COLUMNS)
    .where("organization_id", "=", organizationId)
    .where("id", "=", tokenId)
    .executeTakeFirst();
}

export async function setTokenHash(db: Kysely<Database>, tokenId: string, tokenHash: string): Promise<void> {
  await db
    .updateTable("scim_token")
    .set({ token_hash: tokenHash, last_used_at: null })
    .where("id", "=", tokenId)
    .execute();
}

/** Revokes the token; false when it was revoked already. */
export async function revokeToken(db: Kysely<Database>, tokenId: string): Promise<boolean> {
  const result = await db
    .updateTable("scim_token")
    .set({ revoked_at: new Date().toISOString() })
    .where("id", "=", tokenId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function touchToken(db: Kysely<Database>, tokenId: string, now: Date): Promise<void> {
  await db.updateTable("scim_token").set({ last_used_at: now.toISOString() }).where("id", "=", tokenId).execute();
}

export type ScimUserRow = {
  id: string;
  organization_id: string;
  user_id: string;
  user_name: string;
  external_id: string | null;
  email: string;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
  active: boolean | number;
  created_at: Date | string;
  updated_at: Date | string;
};

const USER_COLUMNS = [
  "id",
  "organization_id",
  "user_id",
  "user_name",
  "external_id",
  "email",
  "given_name",
  "family_name",
  "display_name",
  "active",
  "created_at",
  "updated_at",
] as const;

/** Adds a filter's terms to a query, compared without case (SCIM's `caseExact: false` for these attributes). */
function whereTerms<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  terms: readonly FilterTerm<string>[],
  columnOf: (attribute: string) => string,
): SelectQueryBuilder<DB, TB, O> {
  return terms.reduce((next, term) => {
    const column = columnOf(term.attribute);
    if (typeof term.value === "boolean") return next.where(column as never, "=", (term.value ? 1 : 0) as never);
    return next.where((eb) => {
      const lowered = eb.fn("lower", [eb.ref(column as never)]);
      if (term.operator === "eq") return eb(lowered, "=", eb.val(String(term.value).toLowerCase()));
      const pattern =
        term.operator === "co" ? containsPattern(String(term.value)) : `${escapeLike(String(term.value))}%`;
      // The escape character named: SQLite has none by default (server/db/like-pattern.ts).
      return sql<SqlBool>`${lowered} like ${pattern} escape '\\'`;
    });
  }, query);
}

export type UserAttribute = "userName" | "externalId" | "emails.value" | "displayName" | "id" | "active";
const USER_COLUMN: Record<UserAttribute, string> = {
  userName: "user_name",
  externalId: "external_id",
  "emails.value": "email",
  displayName: "display_name",
  id: "id",
  active: "active",
};

export async function findScimUsers(
  db: Kysely<Database>,
  organizationId: string,
  query: { terms: readonly FilterTerm<UserAttribute>[]; offset: number; limit: number },
): Promise<{ rows: ScimUserRow[]; total: number }> {
  const base = whereTerms(
    db.selectFrom("scim_user").where("organization_id", "=", organizationId),
    query.terms,
    (attribute) => USER_COLUMN[attribute as UserAttribute],
  );
  const [rows, count] = await Promise.all([
    query.limit > 0
      ? base.select(USER_COLUMNS).orderBy("created_at").orderBy("id").limit(query.limit).offset(query.offset).execute()
      : Promise.resolve([]),
    base.select((eb) => eb.fn.countAll<string | number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function findScimUser(
  db: Kysely<Database>,
  organizationId: string,
  where: { id: string } | { userNameKey: string } | { userId: string },
): Promise<ScimUserRow | undefined> {
  let query = db.selectFrom("scim_user").select(USER_COLUMNS).where("organization_id", "=", organizationId);
  if ("id" in where) query = query.where("id", "=", where.id);
  else if ("userNameKey" in where) query = query.where("user_name_key", "=", where.userNameKey);
  else query = query.where("user_id", "=", where.userId);
  return query.executeTakeFirst();
}

export type ScimUserValues = {
  userName: string;
  externalId: string | null;
  email: string;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  active: boolean;
};

const userColumnsOf = (values: ScimUserValues) => ({
  user_name: values.userName,
  user_name_key: values.userName.toLowerCase(),
  external_id: values.externalId,
  email: values.email,
  given_name: values.givenName,
  family_name: values.familyName,
  display_name: values.displayName,
  // 1 and 0: SQLite binds no booleans, and PostgreSQL reads them as true and false.
  active: values.active ? 1 : 0,
  updated_at: new Date().toISOString(),
});

export async function insertScimUser(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  values: ScimUserValues,
): Promise<string> {
  const id = randomUUID();
  const columns = userColumnsOf(values);
  await db
    .insertInto("scim_user")
    .values({ id, organization_id: organizationId, user_id: userId, ...columns, created_at: columns.updated_at })
    .execute();
  return id;
}

export async function updateScimUser(db: Kysely<Database>, id: string, values: ScimUserValues): Promise<void> {
  await db.updateTable("scim_user").set(userColumnsOf(values)).where("id", "=", id).execute();
}

export async function deleteScimUser(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom("scim_user").where("id", "=", id).execute();
}

export async function findUserIdByEmail(db: Kysely<Database>, email: string): Promise<string | undefined> {
  const row = await db.selectFrom("user").select("id").where("email", "=", email.toLowerCase()).executeTakeFirst();
  return row?.id;
}

/** A person the directory brings who has no account: no password, no verified address, until they sign in. */
export async function insertUser(db: Kysely<Database>, user: { name: string; email: string }): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("user")
    .values({
      id,
      name: user.name,
      email: user.email,
      emailVerified: 0,
      image: null,
      createdAt: now,
      updatedAt: now,
      username: null,
      displayUsername: null,
      role: null,
      banned: null,
      banReason: null,
      banExpires: null,
    })
    .execute();
  return id;
}

export async function findMemberRoles(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<string[] | undefined> {
  const row = await db
    .selectFrom("member")
    .select("role")
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row?.role.split(",").map((role) => role.trim());
}

export async function countOwners(db: Kysely<Database>, organizationId: string): Promise<number> {
  const rows = await db
    .selectFrom("member")
    .select("role")
    .where("organizationId", "=", organizationId)
    .where("role", "like", "%owner%")
    .execute();
  return rows.filter((row) => row.role.split(",").some((role) => role.trim() === "owner")).length;
}

/** Signs the person out everywhere. */
export async function deleteSessions(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom("session").where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export type ScimGroupRow = {
  id: string;
  organization_id: string;
  display_name: string;
  external_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

export type GroupAttribute = "displayName" | "externalId" | "id";
const GROUP_COLUMN: Record<GroupAttribute, string> = {
  displayName: "team.name",
  externalId: "scim_group.external_id",
  id: "team.id",
};

const groupsOf = (db: Kysely<Database>, organizationId: string) =>
  db
    .selectFrom("scim_group")
    .innerJoin("team", "team.id", "scim_group.team_id")
    .where("scim_group.organization_id", "=", organizationId);

const GROUP_COLUMNS = [
  "team.id as id",
  "scim_group.organization_id as organization_id",
  "team.name as display_name",
  "scim_group.external_id as external_id",
  "scim_group.created_at as created_at",
  "scim_group.updated_at as updated_at",
] as const;

export async function findScimGroups(
  db: Kysely<Database>,
  organizationId: string,
  query: { terms: readonly FilterTerm<GroupAttribute>[]; offset: number; limit: number },
): Promise<{ rows: ScimGroupRow[]; total: number }> {
  const base = whereTerms(
    groupsOf(db, organizationId),
    query.terms,
    (attribute) => GROUP_COLUMN[attribute as GroupAttribute],
  );
  const [rows, count] = await Promise.all([
    query.limit > 0
      ? base
          .select(GROUP_COLUMNS)
          .orderBy("scim_group.created_at")
          .orderBy("team.id")
          .limit(query.limit)
          .offset(query.offset)
          .execute()
      : Promise.resolve([]),
    base.select((eb) => eb.fn.countAll<string | number>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function findScimGroup(
  db: Kysely<Database>,
  organizationId: string,
  teamId: string,
): Promise<ScimGroupRow | undefined> {
  return groupsOf(db, organizationId).select(GROUP_COLUMNS).where("team.id", "=", teamId).executeTakeFirst();
}

/** The SCIM User ids and labels of the team's members (people the directory did not provision are left out). */
export async function findGroupMembers(
  db: Kysely<Database>,
  organizationId: string,
  teamIds: readonly string[],
): Promise<Array<{ teamId: string; id: string; display: string }>> {
  if (teamIds.length === 0) return [];
  return db
    .selectFrom("teamMember")
    .innerJoin("scim_user", "scim_user.user_id", "teamMember.userId")
    .where("scim_user.organization_id", "=", organizationId)
    .where("teamMember.teamId", "in", teamIds)
    .select(["teamMember.teamId as teamId", "scim_user.id as id", "scim_user.user_name as display"])
    .orderBy("scim_user.user_name")
    .execute();
}

export async function insertTeam(
  db: Kysely<Database>,
  team: { organizationId: string; name: string; externalId: string | null },
): Promise<string> {
  const { id, createdAt } = await insertTeamRow(db, team);
  await db
    .insertInto("scim_group")
    .values({
      team_id: id,
      organization_id: team.organizationId,
      external_id: team.externalId,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  return id;
}

export async function updateGroup(
  db: Kysely<Database>,
  teamId: string,
  values: { name: string; externalId: string | null },
): Promise<void> {
  await renameTeam(db, teamId, values.name);
  await db
    .updateTable("scim_group")
    .set({ external_id: values.externalId, updated_at: new Date().toISOString() })
    .where("team_id", "=", teamId)
    .execute();
}
