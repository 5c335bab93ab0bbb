import { findMemberLabel } from "../organizations.repository";
import { lockOrganizationOf, text, type Member, type OrganizationOperation } from "./operation";

/** Changing a member's roles (which can take an owner away). */
export const updateMemberRole: OrganizationOperation<string | undefined> = {
  lock: lockOrganizationOf,
  prior: async (db, { body }) => {
    const id = text(body.memberId);
    return id
      ? (await db.selectFrom("member").select("role").where("id", "=", id).executeTakeFirst())?.role
      : undefined;
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
