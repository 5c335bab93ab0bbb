import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import {
  clearActiveOrganization,
  findMemberLabel,
  findMemberRoleByIdOrEmail,
  findMembership,
} from "../organizations.repository";
import { field, lockOrganizationOf, organizationOf, type Member, type OrganizationOperation } from "./operation";

/** Removing a member, and clearing the organization from every session of theirs, is one step. */
export const removeMember: OrganizationOperation & {
  /**
   * After better-auth removed the member (its afterRemoveMember): it clears only the acting session, the spec wants
   * every session of theirs.
   */
  clearActiveOrganization: (db: Kysely<Database>, userId: string, organizationId: string) => Promise<void>;
} = {
  lock: lockOrganizationOf,
  // The spec: only an owner removes an owner. better-auth refuses a non-owner too, but with "you cannot leave
  // the organization as the only owner"; the spec's answer is 401 "not allowed to delete this member".
  check: async (db, call) => {
    const { memberIdOrEmail } = call.body;
    const organizationId = organizationOf(call);
    if (typeof memberIdOrEmail !== "string" || !call.session || !organizationId) return;
    const caller = await findMembership(db, organizationId, call.session.user.id);
    // Not a member: better-auth answers that itself.
    if (!caller) return;
    const targetRole = await findMemberRoleByIdOrEmail(db, caller, memberIdOrEmail);
    // No such member: better-auth answers that itself.
    if (targetRole === undefined) return;
    if (targetRole.split(",").some((role) => role.trim() === "owner") && !caller.roles.includes("owner"))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER);
  },
  record: async ({ db, response }) => {
    const member = field(response, "member") as Member | undefined;
    if (!member) return [];
    return [
      {
        action: "member.removed",
        target: { type: "user", id: member.userId, label: (await findMemberLabel(db, member.userId)) ?? member.userId },
        organization: { id: member.organizationId },
        details: { memberId: member.id, role: member.role },
      },
    ];
  },
  clearActiveOrganization,
};
