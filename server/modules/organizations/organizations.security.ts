import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../common/error-codes";
import type { Database } from "../../db/schema";
import { hasSecondFactor, requiresTwoFactor } from "./organizations.repository";
import type { OrganizationScope } from "./organizations.schemas";

/**
 * The organization's security policy, decided for a member on every request about the organization: the app's
 * routes (`requireOrganizationScope`, which billing's share) and better-auth's organization endpoints (the
 * organization rules' before-hook) both call it once the membership is known. While the organization requires a
 * second factor, a member without one is refused with TWO_FACTOR_REQUIRED.
 */
export async function assertSecondFactorPolicy(db: Kysely<Database>, scope: OrganizationScope): Promise<void> {
  if (!(await requiresTwoFactor(db, scope))) return;
  if (await hasSecondFactor(db, scope.userId)) return;
  throw DomainError.of(ORGANIZATION_ERROR_CODES.TWO_FACTOR_REQUIRED);
}
