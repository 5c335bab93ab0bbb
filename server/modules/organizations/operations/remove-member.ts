import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import {
  clearActiveOrganization,
  deleteMembership,
  findMember,
  findMemberLabel,
  findMemberRoleByIdOrEmail,
  findMembership,
} from "../organizations.repository";
import { field, lockOrganizationOf, organizationOf, text, type KeyOperation, type Member } from "./operation";

/** Removing a member, and clearing the organization from every session of theirs, is one step. */
export const removeMember: KeyOperation & {
  /**
   * After better-auth removed the member (its afterRemoveMember): it clears only the acting session, the spec wants
   * every session of theirs.
   */
  clearActiveOrganization: (db: Kysely<Database>, userId: string, organizationId: string) => Promise<void>;
} = {
  lock: lockOrganizationOf,
  // The spec: only an owner removes an owner (an API key is none). better-auth refuses a non-owner too, but with
  // "you cannot leave the organization as the only owner"; the spec's answer is 401 "not allowed to delete this
  // member".
  check: async (db, call) => {
    const { memberIdOrEmail } = call.body;
    const organizationId = organizationOf(call);
    if (typeof memberIdOrEmail !== "string" || !organizationId) return;
    const callerRoles = call.apiKey
      ? []
      : call.session && (await findMembership(db, organizationId, call.session.user.id))?.roles;
    // Not a member: better-auth answers that itself.
    if (!callerRoles) return;
    const targetRole = await findMemberRoleByIdOrEmail(db, { organizationId }, memberIdOrEmail);
    // No such member: better-auth answers that itself (the write, for a key).
    if (targetRole === undefined) return;
    if (targetRole.split(",").some((role) => role.trim() === "owner") && !callerRoles.includes("owner"))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER);
  },
  // An API key names the member by id; the membership goes with the person's teams in the organization.
  write: async (db, { body, apiKey }) => {
    const member = await findMember(db, apiKey, text(body.memberIdOrEmail) ?? "");
    if (!member) throw DomainError.of(ORGANIZATION_ERROR_CODES.MEMBER_NOT_FOUND);
    await deleteMembership(db, member.organizationId, member.userId);
    await clearActiveOrganization(db, member.userId, member.organizationId);
    return { member };
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
