import type { Kysely } from "kysely";
import { toIsoString } from "../../db/database";
import type { Database } from "../../db/schema";

/**
 * The queries of enterprise SSO. Booleans are written and compared as 1 or 0: SQLite stores them as integers, and
 * PostgreSQL reads the untyped '1' or '0' as a boolean. The `ssoProvider` rows are @better-auth/sso's (migration
 * 0018): the plugin writes them, the module reads them and keeps its own columns (the TXT record's token, whether
 * the domain is verified).
 */

export type SsoProviderRow = {
  id: string;
  providerId: string;
  issuer: string;
  domain: string;
  organizationId: string | null;
  domainVerified: boolean;
  domainVerificationToken: string | null;
  oidcConfig: string | null;
  samlConfig: string | null;
  /** The first sign-in through it since it was registered or last changed (migration 0023), ISO 8601; or null. */
  firstSignInAt: string | null;
};

const PROVIDER_COLUMNS = [
  "id",
  "providerId",
  "issuer",
  "domain",
  "organizationId",
  "domainVerified",
  "domainVerificationToken",
  "oidcConfig",
  "samlConfig",
  "firstSignInAt",
] as const;

const toRow = (
  row: Omit<SsoProviderRow, "domainVerified" | "firstSignInAt"> & {
    domainVerified: boolean | number;
    firstSignInAt: Date | string | null;
  },
): SsoProviderRow => ({
  ...row,
  domainVerified: Boolean(row.domainVerified),
  firstSignInAt: toIsoString(row.firstSignInAt),
});

export async function findProvider(db: Kysely<Database>, providerId: string): Promise<SsoProviderRow | undefined> {
  const row = await db
    .selectFrom("ssoProvider")
    .select(PROVIDER_COLUMNS)
    .where("providerId", "=", providerId)
    .executeTakeFirst();
  return row && toRow(row);
}

export async function findProvidersOfOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<SsoProviderRow[]> {
  const rows = await db
    .selectFrom("ssoProvider")
    .select(PROVIDER_COLUMNS)
    .where("organizationId", "=", organizationId)
    .orderBy("providerId")
    .execute();
  return rows.map(toRow);
}

/** The provider that verified `domain` (at most one: the partial unique index of migration 0018). */
export async function findVerifiedProviderOfDomain(
  db: Kysely<Database>,
  domain: string,
): Promise<SsoProviderRow | undefined> {
  const row = await db
    .selectFrom("ssoProvider")
    .select(PROVIDER_COLUMNS)
    .where("domain", "=", domain)
    .where("domainVerified", "=", 1)
    .executeTakeFirst();
  return row && toRow(row);
}

/** The first verified provider of an organization, in providerId order. */
export async function findVerifiedProviderOfOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<SsoProviderRow | undefined> {
  const row = await db
    .selectFrom("ssoProvider")
    .select(PROVIDER_COLUMNS)
    .where("organizationId", "=", organizationId)
    .where("domainVerified", "=", 1)
    .orderBy("providerId")
    .executeTakeFirst();
  return row && toRow(row);
}

export async function setDomainVerificationToken(
  db: Kysely<Database>,
  providerId: string,
  token: string,
): Promise<void> {
  await db
    .updateTable("ssoProvider")
    .set({ domainVerificationToken: token })
    .where("providerId", "=", providerId)
    .execute();
}

/** Records the first sign-in through the provider since it was registered or last changed; later ones keep it. */
export async function recordFirstSignIn(db: Kysely<Database>, providerId: string): Promise<void> {
  await db
    .updateTable("ssoProvider")
    .set({ firstSignInAt: new Date().toISOString() })
    .where("providerId", "=", providerId)
    .where("firstSignInAt", "is", null)
    .execute();
}

/** Forgets the provider's first sign-in: it changed, and has to sign someone in again to count as tested. */
export async function clearFirstSignIn(db: Kysely<Database>, providerId: string): Promise<void> {
  await db.updateTable("ssoProvider").set({ firstSignInAt: null }).where("providerId", "=", providerId).execute();
}

/** Marks the domain verified, if the provider still has it (a concurrent change of domain makes this a no-op). */
export async function markDomainVerified(db: Kysely<Database>, provider: SsoProviderRow): Promise<boolean> {
  const result = await db
    .updateTable("ssoProvider")
    .set({ domainVerified: 1, domainVerificationToken: null })
    .where("id", "=", provider.id)
    .where("domain", "=", provider.domain)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export type SsoOrganization = { id: string; name: string; slug: string; requireSso: boolean };

export async function findSsoOrganization(
  db: Kysely<Database>,
  organizationId: string,
): Promise<(SsoOrganization & { allowDomainJoin: boolean }) | undefined> {
  const row = await db
    .selectFrom("organization")
    .select(["id", "name", "slug", "requireSso", "allowDomainJoin"])
    .where("id", "=", organizationId)
    .executeTakeFirst();
  return row && { ...row, requireSso: Boolean(row.requireSso), allowDomainJoin: Boolean(row.allowDomainJoin) };
}

export async function findOrganizationIdBySlug(db: Kysely<Database>, slug: string): Promise<string | undefined> {
  return (await db.selectFrom("organization").select("id").where("slug", "=", slug).executeTakeFirst())?.id;
}

/** The organization that verified the domain of `email` and requires SSO for it, if any. */
export async function findOrganizationRequiringSso(
  db: Kysely<Database>,
  domain: string,
): Promise<SsoOrganization | undefined> {
  const row = await db
    .selectFrom("ssoProvider")
    .innerJoin("organization", "organization.id", "ssoProvider.organizationId")
    .select(["organization.id", "organization.name", "organization.slug", "organization.requireSso"])
    .where("ssoProvider.domain", "=", domain)
    .where("ssoProvider.domainVerified", "=", 1)
    .where("organization.requireSso", "=", 1)
    .executeTakeFirst();
  return row && { ...row, requireSso: true };
}

/** A user's e-mail, roles in the organization (empty for none) and whether they have a second factor. */
export async function findUserForPolicy(
  db: Kysely<Database>,
  where: { email: string } | { username: string },
): Promise<{ id: string; email: string; twoFactorEnabled: boolean } | undefined> {
  let query = db.selectFrom("user").select(["id", "email", "twoFactorEnabled"]);
  query = "email" in where ? query.where("email", "=", where.email) : query.where("username", "=", where.username);
  const row = await query.executeTakeFirst();
  return row && { id: row.id, email: row.email, twoFactorEnabled: Boolean(row.twoFactorEnabled) };
}

export async function findRoles(db: Kysely<Database>, organizationId: string, userId: string): Promise<string[]> {
  const row = await db
    .selectFrom("member")
    .select("role")
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ? row.role.split(",").map((role) => role.trim()) : [];
}

export async function markEmailVerified(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable("user")
    .set({ emailVerified: 1, updatedAt: new Date().toISOString() })
    .where("id", "=", userId)
    .where("emailVerified", "=", 0)
    .execute();
}
