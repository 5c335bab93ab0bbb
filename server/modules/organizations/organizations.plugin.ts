import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx, type dispatchAuthEndpoint } from "better-auth/api";
import { organization, type OrganizationOptions } from "better-auth/plugins";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { ERROR_CODES, ORGANIZATION_ERROR_CODES } from "../../../common/error-codes";
import { organizationAccessControl, organizationRoles } from "../../../common/permissions";
import type { Database } from "../../db/schema";
import { currentDatabase } from "../../db/current-database";
import { auditedEndpoint, type AuditedSession, type AuditRecord } from "../audit";
import { acceptInvitation } from "./operations/accept-invitation";
import { addMember } from "./operations/add-member";
import { addTeamMember } from "./operations/add-team-member";
import { cancelInvitation } from "./operations/cancel-invitation";
import { createOrganization } from "./operations/create-organization";
import { createTeam } from "./operations/create-team";
import { deleteOrganization } from "./operations/delete-organization";
import { INVITATION_EXPIRES_IN_SECONDS, inviteMember } from "./operations/invite-member";
import { leaveOrganization } from "./operations/leave-organization";
import { text, type OrganizationLimits, type OrganizationOperation } from "./operations/operation";
import { rejectInvitation } from "./operations/reject-invitation";
import { removeMember } from "./operations/remove-member";
import { removeTeam } from "./operations/remove-team";
import { removeTeamMember } from "./operations/remove-team-member";
import { updateMemberRole } from "./operations/update-member-role";
import { updateOrganization } from "./operations/update-organization";
import { updateTeam } from "./operations/update-team";
import { assertMemberOfRequestedOrganization, normalizeMetadata } from "./organizations.service";
import {
  findInvitationWithoutInviter,
  findOrganizationIdBySlug,
  findOrganizationIdOfInvitation,
} from "./organizations.repository";
import { findAdmittedMembership } from "./organizations.security";
import { listMembersPage } from "./list-members";

/** What the deployment decides about organizations; the rules themselves are this module's. */
export type OrganizationsOptions = {
  /** The app's database. Every rule queries through `currentDatabase(db)`, so better-auth's database must be `shareTransactions(db)`. */
  db: Kysely<Database>;
  /** What the plan allows (the billing module's checks), enforced by the operations that add members or teams. */
  limits: OrganizationLimits;
  /**
   * Sees the changes each operation records, in the operation's transaction: the webhooks module queues its events
   * from them (this module does not know it). An operation records an entry only for a change that happened.
   */
  publishChanges?: PublishChanges;
} & Pick<
  OrganizationOptions,
  "organizationLimit" | "allowUserToCreateOrganization" | "disableOrganizationDeletion" | "sendInvitationEmail"
>;

/**
 * The organizations feature as better-auth plugins: better-auth's own organization() configured with the
 * app's roles and its hooks, then `organizationRules`, every rule better-auth does not enforce itself.
 */
export function organizations(options: OrganizationsOptions) {
  const organizationPlugin = organization({
    ac: organizationAccessControl,
    roles: organizationRoles,
    creatorRole: "owner",
    teams: { enabled: true, allowRemovingAllTeams: false },
    invitationExpiresIn: INVITATION_EXPIRES_IN_SECONDS,
    // The spec: only the invited, verified address may accept (better-auth skips the check for its own ids).
    requireEmailVerificationOnInvitation: true,
    organizationLimit: options.organizationLimit,
    allowUserToCreateOrganization: options.allowUserToCreateOrganization,
    disableOrganizationDeletion: options.disableOrganizationDeletion,
    sendInvitationEmail: options.sendInvitationEmail,
    organizationHooks: organizationHooks(options.db),
  });
  const rules = organizationRules({
    db: options.db,
    limits: options.limits,
    endpoints: organizationPlugin.endpoints,
    publishChanges: options.publishChanges,
  });
  return [organizationPlugin, rules] as const;
}

/**
 * better-auth's organization hooks, for the operations' rules that need the team, invitation or member better-auth
 * is working on (so they run where better-auth runs them: after its own checks, inside the operation's transaction).
 */
export function organizationHooks(db: Kysely<Database>) {
  return {
    async beforeCreateTeam({ team }: { team: { name: string } }) {
      createTeam.assertValidName(team.name);
    },
    async beforeDeleteTeam({ team, user }: { team: { id: string; organizationId: string }; user?: { id: string } }) {
      if (user)
        await removeTeam.assertMayDelete(await currentDatabase(db), {
          userId: user.id,
          organizationId: team.organizationId,
          teamId: team.id,
        });
    },
    async beforeCreateInvitation({
      invitation,
      inviter,
    }: {
      invitation: { organizationId: string; email: string };
      inviter: { id: string };
    }) {
      await inviteMember.closeExpiredInvitations(await currentDatabase(db), {
        inviterId: inviter.id,
        organizationId: invitation.organizationId,
        email: invitation.email,
      });
    },
    async beforeUpdateOrganization({
      organization,
      member,
    }: {
      organization: { name?: unknown };
      member: { userId: string; organizationId: string };
    }) {
      await updateOrganization.renameDefaultTeam(await currentDatabase(db), {
        userId: member.userId,
        organizationId: member.organizationId,
        name: organization.name,
      });
    },
    async afterRemoveMember({ member, organization }: { member: { userId: string }; organization: { id: string } }) {
      await removeMember.clearActiveOrganization(await currentDatabase(db), member.userId, organization.id);
    },
  } satisfies OrganizationOptions["organizationHooks"];
}

type Endpoint = Parameters<typeof dispatchAuthEndpoint>[0];

export type PublishChanges = (db: Kysely<Database>, records: readonly AuditRecord[]) => Promise<void>;

/** The organization plugin's endpoints the rules apply to (better-auth's organization plugin's `endpoints`). */
type OrganizationEndpoints = Record<
  | "createOrganization"
  | "getOrganization"
  | "getActiveMember"
  | "getActiveMemberRole"
  | "listMembers"
  | "listInvitations"
  | "getInvitation"
  | "listOrganizationTeams"
  | "listTeamMembers"
  | "setActiveTeam"
  | "hasPermission"
  | "updateOrganization"
  | "deleteOrganization"
  | "getFullOrganization"
  | "setActiveOrganization"
  | "addMember"
  | "removeMember"
  | "updateMemberRole"
  | "leaveOrganization"
  | "createInvitation"
  | "acceptInvitation"
  | "rejectInvitation"
  | "cancelInvitation"
  | "createTeam"
  | "updateTeam"
  | "removeTeam"
  | "addTeamMember"
  | "removeTeamMember",
  Endpoint
>;

/**
 * The organization plugin's endpoints about one organization's data, which its security policy governs: all but
 * creating and listing one's organizations, checking a slug, one's own invitations (seeing, accepting, declining
 * them) and leaving (a member the policy refuses may still go).
 */
const governedByPolicy = (endpoints: OrganizationEndpoints) =>
  new Set(
    [
      endpoints.updateOrganization,
      endpoints.deleteOrganization,
      endpoints.setActiveOrganization,
      endpoints.getOrganization,
      endpoints.getFullOrganization,
      endpoints.getActiveMember,
      endpoints.getActiveMemberRole,
      endpoints.listMembers,
      endpoints.removeMember,
      endpoints.updateMemberRole,
      endpoints.createInvitation,
      endpoints.cancelInvitation,
      endpoints.listInvitations,
      endpoints.createTeam,
      endpoints.updateTeam,
      endpoints.removeTeam,
      endpoints.listOrganizationTeams,
      endpoints.listTeamMembers,
      endpoints.setActiveTeam,
      endpoints.addTeamMember,
      endpoints.removeTeamMember,
      endpoints.hasPermission,
    ].map((endpoint) => endpoint.path),
  );

/** The one place a request's body (or query) is read as a record. */
const recordOf = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});

/**
 * The organization rules better-auth does not enforce itself, shaped as better-auth's own plugins: hooks
 * with matchers, and the error codes they answer with. Every organization write is an operation (./operations/),
 * run here on its better-auth endpoint by the audit module's `auditedEndpoint`: in one transaction, the operation's
 * lock and checks, its prior read, better-auth's write and the audit entries. Queries go through `currentDatabase(db)`.
 */
export function organizationRules(options: {
  db: Kysely<Database>;
  limits: OrganizationLimits;
  endpoints: OrganizationEndpoints;
  publishChanges?: PublishChanges;
}) {
  const { db, limits, endpoints, publishChanges } = options;
  const governed = governedByPolicy(endpoints);
  const run = <TPrior>(endpoint: Endpoint, operation: OrganizationOperation<TPrior>) =>
    auditedEndpoint<TPrior>({
      db,
      endpoint,
      lock: async (trx, body, session) => {
        await operation.lock?.(trx, { body, session });
        await operation.check?.(trx, { body, session }, limits);
      },
      prior: operation.prior,
      record: async (call) => {
        const records = await operation.record(call);
        await publishChanges?.(call.db, records);
        return records;
      },
    });
  return {
    id: "organization-rules",
    $ERROR_CODES: ORGANIZATION_ERROR_CODES,
    hooks: {
      before: [
        {
          // Asking for another tenant's organization (by id or slug) is refused before better-auth clears the
          // caller's active organization on its own refusal.
          matcher: (context) =>
            context.path === endpoints.getFullOrganization.path ||
            context.path === endpoints.setActiveOrganization.path,
          handler: createAuthMiddleware(async (ctx) => {
            const requested = recordOf(ctx.path === endpoints.getFullOrganization.path ? ctx.query : ctx.body);
            const organizationId = text(requested.organizationId);
            const organizationSlug = text(requested.organizationSlug);
            if (!organizationId && !organizationSlug) return;
            const session = await getSessionFromCtx(ctx);
            const activeOrganizationId = session?.session.activeOrganizationId;
            if (session && activeOrganizationId && activeOrganizationId !== organizationId) {
              await assertMemberOfRequestedOrganization(await currentDatabase(db), session.user.id, {
                organizationId,
                organizationSlug,
              });
            }
          }),
        },
        {
          // better-auth's list-members, a page by limit and offset, from the members list's own statement; before
          // the policy's own hook, as it reads the membership under the policy itself.
          matcher: (context) => context.path === endpoints.listMembers.path,
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx);
            const page = await listMembersPage(await currentDatabase(db), recordOf(ctx.query), session?.session);
            if (page) return ctx.json(page);
          }),
        },
        {
          // The organization's security policy, decided by the same function as for the app's routes: the
          // organization the call is about is the one it names (by id, slug or invitation), else the active one,
          // which is better-auth's own rule. Non-members are left to better-auth's refusals.
          matcher: (context) => context.path !== undefined && governed.has(context.path),
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx);
            if (!session) return;
            const trx = await currentDatabase(db);
            const requested = recordOf(ctx.method === "GET" ? ctx.query : ctx.body);
            const slug = text(requested.organizationSlug);
            const invitationId =
              ctx.path === endpoints.cancelInvitation.path ? text(requested.invitationId) : undefined;
            // Setting no organization active (null) is about none.
            if (ctx.path === endpoints.setActiveOrganization.path && !requested.organizationId && !slug) return;
            const organizationId =
              text(requested.organizationId) ??
              (slug && (await findOrganizationIdBySlug(trx, slug))) ??
              (invitationId && (await findOrganizationIdOfInvitation(trx, invitationId))) ??
              session.session.activeOrganizationId;
            if (!organizationId) return;
            await findAdmittedMembership(trx, organizationId, session.user.id);
          }),
        },
        {
          // An invitation an API key sent has no inviter, and better-auth's get-invitation, which names the inviter,
          // refuses it ("inviter is no longer a member") once its checks passed. Those checks, in its order, then the
          // invitation as better-auth answers one, without an inviter's address.
          matcher: (context) => context.path === endpoints.getInvitation.path,
          handler: createAuthMiddleware(async (ctx) => {
            const invitationId = text(recordOf(ctx.query).id);
            const invitation = invitationId
              ? await findInvitationWithoutInviter(await currentDatabase(db), invitationId)
              : undefined;
            if (!invitation) return;
            const session = await getSessionFromCtx(ctx);
            if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Not authenticated");
            if (invitation.status !== "pending" || Date.parse(invitation.expiresAt) < Date.now())
              throw DomainError.of(ORGANIZATION_ERROR_CODES.INVITATION_NOT_FOUND);
            if (invitation.email.toLowerCase() !== session.user.email.toLowerCase())
              throw DomainError.of(ORGANIZATION_ERROR_CODES.YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION);
            if (!session.user.emailVerified)
              throw DomainError.of(ORGANIZATION_ERROR_CODES.EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION);
            return ctx.json({ ...invitation, inviterEmail: null });
          }),
        },
        {
          // Metadata may come as a map or a JSON string; it is bounded in size and depth either way.
          matcher: (context) =>
            context.path === endpoints.createOrganization.path || context.path === endpoints.updateOrganization.path,
          handler: createAuthMiddleware(async (ctx) => {
            const body = recordOf(ctx.body);
            if (ctx.path === endpoints.createOrganization.path && body.metadata !== undefined) {
              return { context: { body: { ...body, metadata: normalizeMetadata(body.metadata) } } };
            }
            const data = recordOf(body.data);
            if (ctx.path === endpoints.updateOrganization.path && data.metadata !== undefined) {
              return { context: { body: { ...body, data: { ...data, metadata: normalizeMetadata(data.metadata) } } } };
            }
          }),
        },
        // Listed after the rules above, so a request they refuse opens no transaction.
        run(endpoints.createOrganization, createOrganization),
        run(endpoints.updateOrganization, updateOrganization),
        run(endpoints.deleteOrganization, deleteOrganization),
        run(endpoints.addMember, addMember),
        run(endpoints.removeMember, removeMember),
        run(endpoints.updateMemberRole, updateMemberRole),
        run(endpoints.leaveOrganization, leaveOrganization),
        run(endpoints.createInvitation, inviteMember),
        run(endpoints.acceptInvitation, acceptInvitation),
        run(endpoints.rejectInvitation, rejectInvitation),
        run(endpoints.cancelInvitation, cancelInvitation),
        run(endpoints.createTeam, createTeam),
        run(endpoints.updateTeam, updateTeam),
        run(endpoints.removeTeam, removeTeam),
        run(endpoints.addTeamMember, addTeamMember),
        run(endpoints.removeTeamMember, removeTeamMember),
      ],
      after: [
        {
          matcher: (context) => context.path === endpoints.leaveOrganization.path,
          handler: createAuthMiddleware(async (ctx) => {
            if (ctx.context.returned instanceof APIError) return;
            const session = (await getSessionFromCtx(ctx)) as AuditedSession | null;
            await leaveOrganization.clearActiveOrganization(await currentDatabase(db), {
              body: recordOf(ctx.body),
              session,
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
