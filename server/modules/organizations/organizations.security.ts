import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../common/error-codes";
import type { Database } from "../../db/schema";
import { findMembershipUnderPolicy, hasSecondFactor } from "./organizations.repository";
import type { OrganizationScope } from "./organizations.schemas";

/**
 * The caller's membership of the organization, once its security policy lets them in: undefined for a non-member,
 * 403 TWO_FACTOR_REQUIRED for a member without a second factor while the organization requires one. The one place
 * organization access is decided: the app's routes (`requireOrganizationScope`, which billing's share) and
 * better-auth's organization endpoints (the organization rules' before-hook) both ask it.
 */
export async function findAdmittedMembership(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<OrganizationScope | undefined> {
  const found = await findMembershipUnderPolicy(db, organizationId, userId);
  if (!found) return undefined;
  if (found.requireTwoFactor && !(await hasSecondFactor(db, userId)))
    throw DomainError.of(ORGANIZATION_ERROR_CODES.TWO_FACTOR_REQUIRED);
  return found.scope;
}
