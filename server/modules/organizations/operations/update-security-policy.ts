import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES, SSO_ERROR_CODES } from "../../../../common/error-codes";
import type { OrganizationSecurity, OrganizationSecurityInput } from "../../../../common/organization.schemas";
import type { Database } from "../../../db/schema";
import { recordAuditEvent, type AuditContext } from "../../audit";
import {
  allowsDomainJoin,
  findOrganizationName,
  hasSecondFactor,
  hasTestedSsoProvider,
  hasVerifiedSsoProvider,
  lockOrganization,
  requiresSso,
  requiresTwoFactor,
  setAllowDomainJoin,
  setRequireSso,
  setRequireTwoFactor,
} from "../organizations.repository";
import type { OrganizationScope } from "../organizations.schemas";

/**
 * An owner or admin sets the organization's security policy: `requireTwoFactor`, `requireSso`, `allowDomainJoin`.
 * Requiring a second factor needs one of the caller's own, or they would be refused their organization at once;
 * requiring SSO needs a provider whose domain is verified, or only the owners' break-glass path would be left, and so
 * does letting people on the verified domains join (the domain is what the organization proved it owns). Turning
 * SSO on also needs such a provider that has signed someone in since it was registered or last changed (the test of
 * the connection, recorded by the server at the sign-in): one that does not work would lock members out. The change
 * and its audit entry (what changed) are one transaction under the organization's lock; setting what it has records
 * nothing.
 */
export async function updateSecurityPolicy(
  db: Kysely<Database>,
  scope: OrganizationScope,
  input: OrganizationSecurityInput,
  audit: AuditContext,
): Promise<OrganizationSecurity> {
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, scope.organizationId);
    const callerHasSecondFactor = await hasSecondFactor(trx, scope.userId);
    if (input.requireTwoFactor && !callerHasSecondFactor)
      throw DomainError.of(ORGANIZATION_ERROR_CODES.OWN_SECOND_FACTOR_REQUIRED);
    const hasVerifiedSso = await hasVerifiedSsoProvider(trx, scope.organizationId);
    if (input.requireSso && !hasVerifiedSso) throw DomainError.of(SSO_ERROR_CODES.SSO_VERIFIED_PROVIDER_REQUIRED);
    if (input.allowDomainJoin && !hasVerifiedSso)
      throw DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_JOIN_NEEDS_VERIFIED_PROVIDER);
    const current = {
      requireTwoFactor: await requiresTwoFactor(trx, scope),
      requireSso: await requiresSso(trx, scope),
      allowDomainJoin: await allowsDomainJoin(trx, scope),
    };
    if (input.requireSso && !current.requireSso && !(await hasTestedSsoProvider(trx, scope.organizationId)))
      throw DomainError.of(SSO_ERROR_CODES.SSO_SIGN_IN_TEST_REQUIRED);
    const next = {
      requireTwoFactor: input.requireTwoFactor ?? current.requireTwoFactor,
      requireSso: input.requireSso ?? current.requireSso,
      allowDomainJoin: input.allowDomainJoin ?? current.allowDomainJoin,
    };
    const changed: Partial<typeof next> = {};
    if (next.requireTwoFactor !== current.requireTwoFactor) {
      await setRequireTwoFactor(trx, scope, next.requireTwoFactor);
      changed.requireTwoFactor = next.requireTwoFactor;
    }
    if (next.requireSso !== current.requireSso) {
      await setRequireSso(trx, scope, next.requireSso);
      changed.requireSso = next.requireSso;
    }
    if (next.allowDomainJoin !== current.allowDomainJoin) {
      await setAllowDomainJoin(trx, scope, next.allowDomainJoin);
      changed.allowDomainJoin = next.allowDomainJoin;
    }
    if (Object.keys(changed).length > 0) {
      const name = (await findOrganizationName(trx, scope)) ?? null;
      await recordAuditEvent(trx, audit, {
        action: "organization.security_changed",
        target: { type: "organization", id: scope.organizationId, label: name },
        organization: { id: scope.organizationId, name },
        details: changed,
      });
    }
    return { ...next, callerHasSecondFactor, hasVerifiedSsoProvider: hasVerifiedSso };
  });
}
