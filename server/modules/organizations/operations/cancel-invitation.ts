import { invitationEntry, type Invitation, type OrganizationOperation } from "./operation";

/** The organization withdrawing a pending invitation. */
export const cancelInvitation: OrganizationOperation = {
  record: ({ response }) => invitationEntry("invitation.canceled", response as Invitation | undefined),
};
