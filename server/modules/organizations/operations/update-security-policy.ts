import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import type { OrganizationSecurity, OrganizationSecurityInput } from "../../../../common/organization.schemas";
import type { Database } from "../../../db/schema";
import { recordAuditEvent, type AuditContext } from "../../audit";
import {
  findOrganizationName,
  hasSecondFactor,
  lockOrganization,
  requiresTwoFactor,
  setRequireTwoFactor,
} from "../organizations.repository";
import type { OrganizationScope } from "../organizations.schemas";

/**
 * An owner or admin sets the organization's security policy (`requireTwoFactor`). Turning it on needs a second
 * factor of the caller's own, or they would be refused their organization at once. The change and its audit entry
 * are one transaction under the organization's lock; setting the policy it already has records nothing.
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
    const current = await requiresTwoFactor(trx, scope);
    if (current !== input.requireTwoFactor) {
      await setRequireTwoFactor(trx, scope, input.requireTwoFactor);
      const name = (await findOrganizationName(trx, scope)) ?? null;
      await recordAuditEvent(trx, audit, {
        action: "organization.security_changed",
        target: { type: "organization", id: scope.organizationId, label: name },
        organization: { id: scope.organizationId, name },
        details: { requireTwoFactor: input.requireTwoFactor },
      });
    }
    return { requireTwoFactor: input.requireTwoFactor, callerHasSecondFactor };
  });
}
