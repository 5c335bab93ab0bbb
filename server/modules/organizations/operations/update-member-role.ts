import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import { findMember, findMemberLabel, updateMemberRole as setMemberRole } from "../organizations.repository";
import { lockOrganizationOf, roleText, rolesIn, text, type KeyOperation, type Member } from "./operation";

/** Changing a member's roles (which can take an owner away). */
export const updateMemberRole: KeyOperation<string | undefined> = {
  lock: lockOrganizationOf,
  prior: async (db, { body }) => {
    const id = text(body.memberId);
    return id
      ? (await db.selectFrom("member").select("role").where("id", "=", id).executeTakeFirst())?.role
      : undefined;
  },
  // better-auth's rules for a caller who is no owner: an owner's roles, and the owner role, are an owner's to change.
  write: async (db, { body, apiKey }) => {
    const member = await findMember(db, apiKey, text(body.memberId) ?? "");
    if (!member) throw DomainError.of(ORGANIZATION_ERROR_CODES.MEMBER_NOT_FOUND);
    const role = roleText(body.role);
    if ([...rolesIn(member.role), ...rolesIn(role)].includes("owner"))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER);
    await setMemberRole(db, member.id, role);
    return { ...member, role };
  },
  record: async ({ db, prior, response }) => {
    const member = response as Member | null;
    if (!member || prior === member.role) return [];
    return [
      {
        action: "member.role_changed",
        target: { type: "user", id: member.userId, label: (await findMemberLabel(db, member.userId)) ?? member.userId },
        organization: { id: member.organizationId },
        details: { memberId: member.id, from: prior ?? null, to: member.role },
      },
    ];
  },
};
