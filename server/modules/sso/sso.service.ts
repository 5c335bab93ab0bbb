import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { ERROR_CODES, SSO_ERROR_CODES } from "../../../common/error-codes";
import { rolesAllow, type OrganizationPermissions } from "../../../common/permissions";
import type { OrganizationSso, OrganizationSsoProvider, SsoDomainRecord } from "../../../common/sso.schemas";
import { shareTransactions } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { recordAuditEvent, type AuditContext } from "../audit";
import { publishOrganizationChanges } from "../webhooks";
import { findAdmittedMembership, insertMember, lockOrganization } from "../organizations";
import * as repository from "./sso.repository";
import type { SsoProviderRow } from "./sso.repository";
import type { TxtLookup } from "./sso.dns";

/** The DNS name's first label, `_atrium-sso-<providerId>`, and the value's prefix. */
export const DNS_RECORD_PREFIX = "atrium-sso";

/** Owners and admins manage SSO: the permission to update the organization (permissions as data). */
const MANAGE_SSO: OrganizationPermissions = { organization: ["update"] };

/** The record that proves `provider`'s domain: `TXT _atrium-sso-<providerId>.<domain> "atrium-sso=<token>"`. */
export function domainRecordOf(
  provider: Pick<SsoProviderRow, "providerId" | "domain">,
  token: string,
): SsoDomainRecord {
  return {
    type: "TXT",
    name: `_${DNS_RECORD_PREFIX}-${provider.providerId}.${provider.domain}`,
    value: `${DNS_RECORD_PREFIX}=${token}`,
  };
}

const newToken = () => randomBytes(18).toString("base64url");

/** The part of an address after its last `@`, lowercased; undefined when there is none. */
export function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf("@");
  return at > 0
    ? email
        .slice(at + 1)
        .trim()
        .toLowerCase() || undefined
    : undefined;
}

/**
 * Throws 403 SSO_ADMIN_REQUIRED unless the user is an owner or admin of the organization (outsiders alike), and 403
 * TWO_FACTOR_REQUIRED for one without a second factor while the organization requires it (its security policy).
 */
export async function assertMayManageSso(db: Kysely<Database>, organizationId: string, userId: string): Promise<void> {
  const membership = await findAdmittedMembership(db, organizationId, userId);
  if (!rolesAllow((membership?.roles ?? []).join(","), MANAGE_SSO))
    throw DomainError.of(SSO_ERROR_CODES.SSO_ADMIN_REQUIRED);
}

/** The provider of an organization that the user may manage; 404 for none (or one of no organization). */
async function getManagedProvider(db: Kysely<Database>, providerId: string, userId: string): Promise<SsoProviderRow> {
  const provider = await repository.findProvider(db, providerId);
  if (!provider?.organizationId) throw DomainError.of(SSO_ERROR_CODES.SSO_PROVIDER_NOT_FOUND);
  await assertMayManageSso(db, provider.organizationId, userId);
  return provider;
}

/** Refuses a domain that another organization has verified (checked again, race-proof, at verification). */
export async function assertDomainAvailable(
  db: Kysely<Database>,
  domain: string,
  organizationId: string,
): Promise<void> {
  const holder = await repository.findVerifiedProviderOfDomain(db, domain);
  if (holder && holder.organizationId !== organizationId) throw DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_TAKEN);
}

/**
 * An owner or admin asks for the DNS record that proves a provider's domain: the same record until the domain is
 * verified (a DNS host's records stay), a new one only for a provider that never had one.
 */
export async function requestDomainVerification(
  db: Kysely<Database>,
  input: { providerId: string; userId: string },
): Promise<{ domainVerificationToken: string; record: SsoDomainRecord }> {
  const provider = await getManagedProvider(db, input.providerId, input.userId);
  if (provider.domainVerified) throw DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_ALREADY_VERIFIED);
  const token = provider.domainVerificationToken ?? newToken();
  if (!provider.domainVerificationToken) await repository.setDomainVerificationToken(db, provider.providerId, token);
  return { domainVerificationToken: token, record: domainRecordOf(provider, token) };
}

/**
 * An owner or admin has published the record: it is looked up (through DNS_SERVERS, the development DNS server, or
 * the system's resolvers), then the domain is marked verified with its audit entry in one transaction. A domain
 * another organization verified first is refused there: checked under the organization's lock, and on a race the
 * partial unique index of migration 0018 refuses the second (answered as SSO_DOMAIN_TAKEN, `ssoUniqueConflicts`).
 */
export async function verifyDomain(
  db: Kysely<Database>,
  lookup: TxtLookup,
  input: { providerId: string; userId: string; audit: AuditContext },
): Promise<{ providerId: string; domain: string; domainVerified: true }> {
  const provider = await getManagedProvider(db, input.providerId, input.userId);
  if (provider.domainVerified) throw DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_ALREADY_VERIFIED);
  const { record } = await requestDomainVerification(db, input);
  let published: string[];
  try {
    published = await lookup(record.name);
  } catch {
    throw DomainError.of(SSO_ERROR_CODES.SSO_DNS_UNAVAILABLE);
  }
  if (!published.some((value) => value.trim() === record.value))
    throw DomainError.of(SSO_ERROR_CODES.SSO_DNS_RECORD_NOT_FOUND, { record });
  const organizationId = provider.organizationId!;
  await db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    const holder = await repository.findVerifiedProviderOfDomain(trx, provider.domain);
    if (holder && holder.organizationId !== organizationId) throw DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_TAKEN);
    if (holder) throw DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_ALREADY_VERIFIED);
    if (!(await repository.markDomainVerified(trx, provider))) {
      throw new DomainError(ERROR_CODES.CONFLICT, "The provider changed while its domain was verified: try again");
    }
    await recordAuditEvent(trx, input.audit, {
      action: "organization.sso_domain_verified",
      target: { type: "organization", id: organizationId },
      organization: { id: organizationId },
      details: { providerId: provider.providerId, domain: provider.domain },
    });
  });
  return { providerId: provider.providerId, domain: provider.domain, domainVerified: true };
}

/** What the deployment's plan limits allow (the billing module's check, handed in as the organizations module's). */
export type SsoLimits = {
  assertWithinLimit: (organizationId: string, resource: "members", adding: number) => Promise<void>;
};

/**
 * Just-in-time membership, after every sign-in through a provider: an address on the provider's verified domain is
 * marked verified (the organization proved the domain), and its user becomes a member of the provider's
 * organization with the default role (member) unless they already are one, within the plan's seats, with its
 * audit entry, in one transaction under the organization's lock. Other addresses get neither. The provider's first
 * such sign-in (since it was registered or last changed) is recorded: it is the test requiring SSO asks for.
 */
export async function provisionSsoMember(
  db: Kysely<Database>,
  limits: SsoLimits,
  input: { userId: string; email: string; providerId: string; audit: AuditContext },
): Promise<"member" | "added" | "outside-domain"> {
  // better-auth's own transactions are remembered on this instance, so the plan check reads through this one.
  return shareTransactions(db)
    .transaction()
    .execute(async (trx) => {
      const provider = await repository.findProvider(trx, input.providerId);
      if (!provider?.organizationId || !provider.domainVerified || domainOf(input.email) !== provider.domain)
        return "outside-domain";
      await repository.markEmailVerified(trx, input.userId);
      const organizationId = provider.organizationId;
      await lockOrganization(trx, organizationId);
      await repository.recordFirstSignIn(trx, provider.providerId);
      if ((await repository.findRoles(trx, organizationId, input.userId)).length > 0) return "member";
      await limits.assertWithinLimit(organizationId, "members", 1);
      await insertMember(trx, { organizationId, userId: input.userId, role: "member" });
      const entry = {
        action: "member.added",
        target: { type: "user", id: input.userId, label: input.email },
        organization: { id: organizationId },
        details: { role: "member", providerId: provider.providerId },
      } as const;
      await recordAuditEvent(trx, input.audit, entry);
      // The organization's webhooks hear of it as of any other member who joins, in this transaction.
      await publishOrganizationChanges(trx, [entry]);
      return "added";
    });
}

/**
 * A seat for the person an SSO sign-in is about to let in, checked inside the sign-in's transaction before its
 * session is written: refused with the plan's limit there, the new user and the session roll back with it, and the
 * browser goes to the error page. `provisionSsoMember` checks again under the organization's lock, after the commit.
 */
export async function assertSsoSeat(
  db: Kysely<Database>,
  limits: SsoLimits,
  input: { providerId: string; userId: string },
): Promise<void> {
  const provider = await repository.findProvider(db, input.providerId);
  if (!provider?.organizationId || !provider.domainVerified) return;
  const user = await db.selectFrom("user").select("email").where("id", "=", input.userId).executeTakeFirst();
  if (!user || domainOf(user.email) !== provider.domain) return;
  if ((await repository.findRoles(db, provider.organizationId, input.userId)).length > 0) return;
  await limits.assertWithinLimit(provider.organizationId, "members", 1);
}

/**
 * A person an SSO sign-in is about to create: their address must be on the provider's verified domain, or the IdP
 * could create accounts for addresses it does not own (taken before their owners sign up). Refused with
 * SSO_EMAIL_OUTSIDE_DOMAIN, which rolls the sign-in back; people already known sign in only through a provider of
 * their domain (the plugin links an account only then).
 */
export async function assertSsoAddressOnDomain(
  db: Kysely<Database>,
  input: { providerId: string; email: string },
): Promise<void> {
  const provider = await repository.findProvider(db, input.providerId);
  if (!provider?.domainVerified || domainOf(input.email) !== provider.domain)
    throw DomainError.of(SSO_ERROR_CODES.SSO_EMAIL_OUTSIDE_DOMAIN);
}

/**
 * The organization's policy on password sign-in: while it requires SSO, a password sign-up or sign-in with an address
 * on one of its verified domains answers 403 SSO_REQUIRED, with where to sign in instead. The break-glass path: an
 * owner of that organization with an authenticator app (TOTP) keeps the password sign-in, which then asks for the
 * code (a password alone never suffices); passkey sign-in is not a password sign-in and stays open.
 */
export async function assertPasswordSignInAllowed(
  db: Kysely<Database>,
  input: { email: string; isSignUp: boolean } | { username: string },
): Promise<void> {
  const user =
    "username" in input
      ? await repository.findUserForPolicy(db, { username: input.username.toLowerCase() })
      : input.isSignUp
        ? undefined
        : await repository.findUserForPolicy(db, { email: input.email.toLowerCase() });
  const email = "username" in input ? user?.email : input.email;
  const domain = email && domainOf(email);
  if (!domain) return;
  const organization = await repository.findOrganizationRequiringSso(db, domain);
  if (!organization) return;
  if (user?.twoFactorEnabled && (await repository.findRoles(db, organization.id, user.id)).includes("owner")) return;
  throw DomainError.of(SSO_ERROR_CODES.SSO_REQUIRED, {
    organizationSlug: organization.slug,
    organizationName: organization.name,
    signIn: { method: "POST", path: "/api/auth/sign-in/sso", body: { organizationSlug: organization.slug } },
  });
}

/** The verified provider a discovery names (an address, a domain or an organization's slug), if there is one. */
export async function findSignInProvider(
  db: Kysely<Database>,
  input: { email?: string; domain?: string; organizationSlug?: string },
): Promise<string | undefined> {
  const domain = input.domain?.trim().toLowerCase().replace(/\.$/, "") ?? (input.email && domainOf(input.email));
  if (domain) return (await repository.findVerifiedProviderOfDomain(db, domain))?.providerId;
  if (!input.organizationSlug) return undefined;
  const organizationId = await repository.findOrganizationIdBySlug(db, input.organizationSlug);
  return organizationId && (await repository.findVerifiedProviderOfOrganization(db, organizationId))?.providerId;
}

/** The service provider's values for one provider, as the IdP's administrator enters them. */
export function serviceProviderValues(baseUrl: string, providerId: string): OrganizationSsoProvider["serviceProvider"] {
  const auth = `${baseUrl}/api/auth`;
  const metadataUrl = `${auth}/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`;
  return {
    oidcRedirectUri: `${auth}/sso/callback/${providerId}`,
    acsUrl: `${auth}/sso/saml2/sp/acs/${providerId}`,
    entityId: metadataUrl,
    metadataUrl,
  };
}

const parseJson = (text: string | null): Record<string, unknown> | null => {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** `GET /api/organizations/{id}/sso`: the organization's providers (secrets left out) and its policy. */
export async function getOrganizationSso(
  db: Kysely<Database>,
  organizationId: string,
  baseUrl: string,
): Promise<OrganizationSso> {
  const organization = await repository.findSsoOrganization(db, organizationId);
  if (!organization) throw new DomainError(ERROR_CODES.NOT_FOUND, "organization not found");
  const providers = await repository.findProvidersOfOrganization(db, organizationId);
  return {
    organizationSlug: organization.slug,
    requireSso: organization.requireSso,
    allowDomainJoin: organization.allowDomainJoin,
    providers: providers.map((provider) => {
      const oidc = parseJson(provider.oidcConfig);
      const saml = parseJson(provider.samlConfig);
      const spMetadata = saml?.spMetadata as { entityID?: unknown } | undefined;
      const serviceProvider = serviceProviderValues(baseUrl, provider.providerId);
      return {
        providerId: provider.providerId,
        type: oidc ? "oidc" : "saml",
        issuer: provider.issuer,
        domain: provider.domain,
        domainVerified: provider.domainVerified,
        domainRecord:
          provider.domainVerified || !provider.domainVerificationToken
            ? null
            : domainRecordOf(provider, provider.domainVerificationToken),
        clientId: typeof oidc?.clientId === "string" ? oidc.clientId : null,
        firstSignInAt: provider.firstSignInAt,
        serviceProvider: {
          ...serviceProvider,
          entityId: typeof spMetadata?.entityID === "string" ? spMetadata.entityID : serviceProvider.entityId,
        },
      } satisfies OrganizationSsoProvider;
    }),
  };
}
