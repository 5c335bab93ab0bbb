import { findInvitationOrganizationId } from "../organizations.repository";
import { field, invitationEntry, text, type Invitation, type Member, type OrganizationOperation } from "./operation";

/** Accepting an invitation, which adds its address's user as a member. */
export const acceptInvitation: OrganizationOperation = {
  // The seat is already counted, but the plan may have shrunk since the invitation went out.
  check: async (db, { body }, limits) => {
    const invitationId = text(body.invitationId);
    const organizationId = invitationId ? await findInvitationOrganizationId(db, invitationId) : undefined;
    if (organizationId) await limits.assertWithinLimit(organizationId, "members", 0);
  },
  record: ({ response, session }) => {
    const invitation = field(response, "invitation") as Invitation | undefined;
    const member = field(response, "member") as Member | undefined;
    if (!invitation || !member) return [];
    return [
      ...invitationEntry("invitation.accepted", invitation),
      {
        action: "member.added",
        target: { type: "user", id: member.userId, label: session?.user.email ?? member.userId },
        organization: { id: member.organizationId },
        details: { memberId: member.id, role: member.role, invitationId: invitation.id },
      },
    ];
  },
};
