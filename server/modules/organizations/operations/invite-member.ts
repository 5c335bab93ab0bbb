import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import {
  cancelExpiredPendingInvitations,
  findMembership,
  findOrganizationName,
  findPendingInvitations,
  findTeam,
  hasPendingInvitation,
  insertInvitation,
  isMemberAddress,
} from "../organizations.repository";
import {
  invitationEntry,
  permittedOrganization,
  roleText,
  rolesIn,
  text,
  type Invitation,
  type KeyOperation,
} from "./operation";

/** How long an invitation stays open: 2 days (the organization plugin's `invitationExpiresIn`, and an API key's). */
export const INVITATION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 2;

/** better-auth's limit of pending invitations per organization (its `invitationLimit` default). */
const INVITATION_LIMIT = 100;

/** Inviting an address to an organization, or resending its pending invitation. */
export const inviteMember: KeyOperation & {
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
  // The invitation comes from the organization (no inviter), and so does its mail. better-auth's rules for an
  // inviter who is no owner, in its order.
  write: async (db, { body, apiKey }, { sendInvitationEmail }) => {
    const email = (text(body.email) ?? "").toLowerCase();
    const role = roleText(body.role);
    if (rolesIn(role).includes("owner"))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE);
    if (await isMemberAddress(db, apiKey, email))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION);
    const now = new Date();
    const pending = await findPendingInvitations(db, apiKey, now);
    if (pending.some((invitation) => invitation.email === email))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION);
    if (pending.length >= INVITATION_LIMIT) throw DomainError.of(ORGANIZATION_ERROR_CODES.INVITATION_LIMIT_REACHED);
    const teamIds = typeof body.teamId === "string" ? [body.teamId] : ((body.teamId as string[] | undefined) ?? []);
    for (const teamId of teamIds)
      if (!(await findTeam(db, apiKey, teamId))) throw DomainError.of(ORGANIZATION_ERROR_CODES.TEAM_NOT_FOUND);
    await cancelExpiredPendingInvitations(db, apiKey, email, now);
    const invitation = await insertInvitation(db, {
      organizationId: apiKey.organizationId,
      email,
      role,
      teamId: teamIds.length > 0 ? teamIds.join(",") : null,
      expiresAt: new Date(now.getTime() + INVITATION_EXPIRES_IN_SECONDS * 1000).toISOString(),
      createdAt: now.toISOString(),
    });
    await sendInvitationEmail({
      id: invitation.id,
      email,
      role,
      organization: { name: (await findOrganizationName(db, apiKey)) ?? "" },
      inviter: null,
    });
    return invitation;
  },
  record: ({ body, response }) =>
    invitationEntry(body.resend === true ? "invitation.resent" : "invitation.sent", response as Invitation | undefined),
  async closeExpiredInvitations(db, input) {
    const scope = await findMembership(db, input.organizationId, input.inviterId);
    if (scope) await cancelExpiredPendingInvitations(db, scope, input.email, new Date());
  },
};
