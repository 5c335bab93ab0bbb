import type { Kysely } from "kysely";
import type { AssignOwnerInput } from "../../../../common/admin.schemas";
import type { LimitedResource } from "../../../../common/billing.schemas";
import { DomainError } from "../../../../common/domain-error";
import { ERROR_CODES } from "../../../../common/error-codes";
import { shareTransactions } from "../../../db/current-database";
import type { Database } from "../../../db/schema";
import { recordAuditEvent, type AuditContext } from "../../audit";
import { publishOrganizationChanges } from "../../webhooks";
import {
  findMembership,
  insertMember,
  lockOrganization,
  organizationExists,
  updateMemberRole,
} from "../../organizations";
import { findUserByEmail } from "../admin.repository";

/** The plan limit check, handed in by the deployment (the billing module): it reads under the organization's lock. */
export type AssertWithinLimit = (organizationId: string, resource: LimitedResource, adding: number) => Promise<void>;

/** Who became owner, and the role they had before (null when they were not a member). */
export type AssignedOwner = { userId: string; email: string; from: string | null };

/**
 * A platform admin gives an organization a new owner, for when nobody in it can manage it (its only owner deleted
 * their account): an existing user, by e-mail. A member's role becomes `owner`; anyone else joins as owner, which
 * takes a seat of the plan. The change and its audit entry (with the reason) are one transaction, under the
 * organization's lock, so it takes turns with the changes that count owners or seats.
 */
export async function assignOwner(
  deps: { db: Kysely<Database>; assertWithinLimit: AssertWithinLimit },
  organizationId: string,
  input: AssignOwnerInput,
  audit: AuditContext,
): Promise<AssignedOwner> {
  // Shared, so the limit check (which queries through `currentDatabase`) runs inside this transaction.
  return shareTransactions(deps.db)
    .transaction()
    .execute(async (trx) => {
      await lockOrganization(trx, organizationId);
      if (!(await organizationExists(trx, organizationId))) {
        throw new DomainError(ERROR_CODES.NOT_FOUND, "organization not found");
      }
      const email = input.email.toLowerCase();
      const user = await findUserByEmail(trx, email);
      if (!user) throw new DomainError(ERROR_CODES.NOT_FOUND, `No user has the e-mail ${email}.`);
      const membership = await findMembership(trx, organizationId, user.id);
      if (membership?.roles.includes("owner")) {
        throw new DomainError(ERROR_CODES.CONFLICT, `${email} is already an owner of this organization.`);
      }
      if (membership) {
        await updateMemberRole(trx, membership.memberId, "owner");
      } else {
        await deps.assertWithinLimit(organizationId, "members", 1);
        await insertMember(trx, { organizationId, userId: user.id, role: "owner" });
      }
      const from = membership ? membership.roles.join(",") : null;
      await recordAuditEvent(trx, audit, {
        action: "organization.owner_assigned",
        target: { type: "user", id: user.id, label: user.email },
        organization: { id: organizationId },
        reason: input.reason,
        details: { from, to: "owner" },
      });
      // The organization's webhooks hear of the new owner as of any other member or role change.
      await publishOrganizationChanges(trx, [
        membership
          ? {
              action: "member.role_changed",
              target: { type: "user", id: user.id, label: user.email },
              organization: { id: organizationId },
              details: { memberId: membership.memberId, from, to: "owner" },
            }
          : {
              action: "member.added",
              target: { type: "user", id: user.id, label: user.email },
              organization: { id: organizationId },
              details: { role: "owner" },
            },
      ]);
      return { userId: user.id, email: user.email, from };
    });
}
