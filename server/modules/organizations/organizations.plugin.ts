import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { organization, type OrganizationOptions } from "better-auth/plugins";
import type { Kysely } from "kysely";
import { ORGANIZATION_ERROR_CODES } from "../../../common/error-codes";
import { organizationAccessControl, organizationRoles } from "../../../common/permissions";
import type { Database } from "../../db/schema";
import { currentDatabase } from "../../db/current-database";
import { organizationAuditHooks, type AuditedOrganizationEndpoints } from "./organizations.audit";
import {
  assertMayDeleteTeam,
  assertMayRemoveMember,
  assertMemberOfRequestedOrganization,
  assertValidTeamName,
  closeExpiredInvitations,
  normalizeMetadata,
  onMemberLeft,
  renameDefaultTeam,
} from "./organizations.service";

/** What the deployment decides about organizations; the rules themselves are this module's. */
export type OrganizationsOptions = {
  /** The app's database. Every rule queries through `currentDatabase(db)`, so better-auth's database must be `shareTransactions(db)`. */
  db: Kysely<Database>;
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
    invitationExpiresIn: 60 * 60 * 24 * 2,
    // The spec: only the invited, verified address may accept (better-auth skips the check for its own ids).
    requireEmailVerificationOnInvitation: true,
    organizationLimit: options.organizationLimit,
    allowUserToCreateOrganization: options.allowUserToCreateOrganization,
    disableOrganizationDeletion: options.disableOrganizationDeletion,
    sendInvitationEmail: options.sendInvitationEmail,
    organizationHooks: organizationHooks(options.db),
  });
  const rules = organizationRules({ db: options.db, endpoints: organizationPlugin.endpoints });
  return [organizationPlugin, rules] as const;
}

/** better-auth's organization hooks for the rules that need the team, invitation or member better-auth is working on. */
export function organizationHooks(db: Kysely<Database>) {
  return {
    async beforeCreateTeam({ team }: { team: { name: string } }) {
      assertValidTeamName(team.name);
    },
    async beforeDeleteTeam({ team, user }: { team: { id: string; organizationId: string }; user?: { id: string } }) {
      if (user)
        await assertMayDeleteTeam(await currentDatabase(db), {
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
      await closeExpiredInvitations(await currentDatabase(db), {
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
      await renameDefaultTeam(await currentDatabase(db), {
        userId: member.userId,
        organizationId: member.organizationId,
        name: organization.name,
      });
    },
    async afterRemoveMember({ member, organization }: { member: { userId: string }; organization: { id: string } }) {
      await onMemberLeft(await currentDatabase(db), member.userId, organization.id);
    },
  } satisfies OrganizationOptions["organizationHooks"];
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const bodyOf = (ctx: HookContext) =>
  ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : undefined;
const nonEmptyString = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/**
 * The organization rules better-auth does not enforce itself, shaped as better-auth's own plugins: hooks
 * with matchers, and the error codes they answer with; then every change, run in one transaction with its
 * audit entry. Their queries go through `currentDatabase(db)`.
 */
export function organizationRules(options: { db: Kysely<Database>; endpoints: AuditedOrganizationEndpoints }) {
  const { db } = options;
  return {
    id: "organization-rules",
    $ERROR_CODES: ORGANIZATION_ERROR_CODES,
    hooks: {
      before: [
        {
          // The spec: only an owner removes an owner.
          matcher: (context) => context.path === "/organization/remove-member",
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            if (typeof body?.memberIdOrEmail !== "string") return;
            const session = await getSessionFromCtx(ctx);
            const organizationId = nonEmptyString(body.organizationId) ?? session?.session.activeOrganizationId;
            if (session && organizationId) {
              await assertMayRemoveMember(await currentDatabase(db), {
                userId: session.user.id,
                organizationId,
                memberIdOrEmail: body.memberIdOrEmail,
              });
            }
          }),
        },
        {
          // Asking for another tenant's organization (by id or slug) is refused before better-auth clears the
          // caller's active organization on its own refusal.
          matcher: (context) =>
            context.path === "/organization/get-full-organization" || context.path === "/organization/set-active",
          handler: createAuthMiddleware(async (ctx) => {
            const requested = (ctx.path === "/organization/get-full-organization" ? ctx.query : bodyOf(ctx)) as
              Record<string, unknown> | undefined;
            const organizationId = nonEmptyString(requested?.organizationId);
            const organizationSlug = nonEmptyString(requested?.organizationSlug);
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
          // Metadata may come as a map or a JSON string; it is bounded in size and depth either way.
          matcher: (context) => context.path === "/organization/create" || context.path === "/organization/update",
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            if (ctx.path === "/organization/create" && body && body.metadata !== undefined) {
              return { context: { body: { ...body, metadata: normalizeMetadata(body.metadata) } } };
            }
            const data =
              body?.data && typeof body.data === "object" ? (body.data as Record<string, unknown>) : undefined;
            if (ctx.path === "/organization/update" && body && data && data.metadata !== undefined) {
              return { context: { body: { ...body, data: { ...data, metadata: normalizeMetadata(data.metadata) } } } };
            }
          }),
        },
        // Listed after the rules above, so a request they refuse opens no transaction. The hooks of later plugins
        // (the billing rules) run once, inside it.
        ...organizationAuditHooks(db, options.endpoints),
      ],
      after: [
        {
          // The spec: leaving clears the organization from every session of the member; better-auth clears only this one.
          matcher: (context) => context.path === "/organization/leave",
          handler: createAuthMiddleware(async (ctx) => {
            if (ctx.context.returned instanceof APIError) return;
            const session = await getSessionFromCtx(ctx);
            const organizationId = nonEmptyString(bodyOf(ctx)?.organizationId);
            if (session && organizationId)
              await onMemberLeft(await currentDatabase(db), session.user.id, organizationId);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
