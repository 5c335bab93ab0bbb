import { field, invitationEntry, type Invitation, type OrganizationOperation } from "./operation";

/** The invited user declining an invitation. */
export const rejectInvitation: OrganizationOperation = {
  record: ({ response }) =>
    invitationEntry("invitation.rejected", field(response, "invitation") as Invitation | undefined),
};
