import type { Kysely } from "kysely";
import { organizationTag, userTag, type ReadCache } from "../../db/read-cache";
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
 *
 * Given the read cache (a read, GET or HEAD, only), the membership is kept there as a read's session is (ADR 0036).
 * The change feed's rows for the user or the organization drop it: a change of the membership, a ban or deletion of
 * the user, a change of the organization's policy. Only a membership admitted without asking for a second factor is
 * kept: removing one's second factor is not in the feed, so under the policy every read asks the database.
 */
export async function findAdmittedMembership(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  cache?: ReadCache,
): Promise<OrganizationScope | undefined> {
  const key = `membership#${organizationId}#${userId}`;
  const kept = cache?.get<OrganizationScope>(key);
  if (kept) return kept;
  const ticket = cache?.ticket();
  const found = await findMembershipUnderPolicy(db, organizationId, userId);
  if (cache && found && !found.requireTwoFactor) {
    const scope = Object.freeze({ ...found.scope, roles: Object.freeze([...found.scope.roles]) });
    cache.set(key, scope, { tags: [userTag(userId), organizationTag(organizationId)] }, ticket);
  }
  return admitted(db, userId, found);
}

async function admitted(
  db: Kysely<Database>,
  userId: string,
  found: Awaited<ReturnType<typeof findMembershipUnderPolicy>>,
): Promise<OrganizationScope | undefined> {
  if (!found) return undefined;
  if (found.requireTwoFactor && !(await hasSecondFactor(db, userId)))
    throw DomainError.of(ORGANIZATION_ERROR_CODES.TWO_FACTOR_REQUIRED);
  return found.scope;
}
