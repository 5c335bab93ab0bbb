import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import { findOrganizationInvitation, setInvitationStatus } from "../organizations.repository";
import { invitationEntry, text, type Invitation, type KeyOperation } from "./operation";

/** The organization withdrawing an invitation (better-auth cancels one in any state). */
export const cancelInvitation: KeyOperation = {
  write: async (db, { body, apiKey }) => {
    const invitation = await findOrganizationInvitation(db, apiKey, text(body.invitationId) ?? "");
    if (!invitation) throw DomainError.of(ORGANIZATION_ERROR_CODES.INVITATION_NOT_FOUND);
    await setInvitationStatus(db, invitation.id, "canceled");
    return { ...invitation, status: "canceled" };
  },
  record: ({ response }) => invitationEntry("invitation.canceled", response as Invitation | undefined),
};
