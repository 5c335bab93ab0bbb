import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { cancelExpiredPendingInvitations, findMembership, hasPendingInvitation } from "../organizations.repository";
import { invitationEntry, permittedOrganization, text, type Invitation, type OrganizationOperation } from "./operation";

/** Inviting an address to an organization, or resending its pending invitation. */
export const inviteMember: OrganizationOperation & {
  /**
   * An expired pending invitation would otherwise make re-inviting the address fail on the unique index. Runs
   * when better-auth is about to write the invitation (its beforeCreateInvitation).
   */
  closeExpiredInvitations: (
    db: Kysely<Database>,
    input: { inviterId: string; organizationId: string; email: string },
  ) => Promise<void>;
} = {
  check: async (db, call, limits) => {
    const organizationId = await permittedOrganization(db, call, { invitation: ["create"] });
    const email = text(call.body.email);
    if (!organizationId || !email) return;
    // An address already invited holds its seat: resending renews it, inviting again is refused by better-auth
    // for what it is. A new invitation takes one more seat. Read under the organization's lock, so two
    // invitations of one new address at once count as one.
    await limits.assertWithinLimit(organizationId, "members", async (trx) =>
      (await hasPendingInvitation(trx, { organizationId }, email)) ? 0 : 1,
    );
  },
  record: ({ body, response }) =>
    invitationEntry(body.resend === true ? "invitation.resent" : "invitation.sent", response as Invitation | undefined),
  async closeExpiredInvitations(db, input) {
    const scope = await findMembership(db, input.organizationId, input.inviterId);
    if (scope) await cancelExpiredPendingInvitations(db, scope, input.email, new Date());
  },
};
