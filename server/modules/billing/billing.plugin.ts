import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { Kysely } from "kysely";
import { rolesAllow, type OrganizationPermissions } from "../../../common/permissions";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { findInvitationOrganizationId, findMembership, hasPendingInvitation } from "../organizations";
import type { Billing } from "./billing.service";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const bodyOf = (ctx: HookContext) =>
  ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : {};
const stringOf = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/**
 * What the plan allows, enforced where organizations change: inviting (and resending), accepting, adding a
 * member, creating a team; and deleting an organization ends its subscription first. Each check runs only for a
 * caller better-auth would let through, so a refusal for lack of permission still reads as one.
 */
export function billingRules(options: { db: Kysely<Database>; billing: Billing }): BetterAuthPlugin {
  const { db, billing } = options;

  /** The organization the request is about, when the caller's roles in it grant `permissions`. */
  async function permittedOrganization(
    ctx: HookContext,
    organizationId: string | undefined,
    permissions: OrganizationPermissions,
  ): Promise<string | undefined> {
    const session = await getSessionFromCtx(ctx);
    const id = organizationId ?? session?.session.activeOrganizationId ?? undefined;
    if (!session || !id) return undefined;
    const scope = await findMembership(await currentDatabase(db), id, session.user.id);
    return scope && rolesAllow(scope.roles.join(","), permissions) ? id : undefined;
  }

  return {
    id: "billing-rules",
    hooks: {
      before: [
        {
          matcher: (context) => context.path === "/organization/invite-member",
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            const organizationId = await permittedOrganization(ctx, stringOf(body.organizationId), {
              invitation: ["create"],
            });
            const email = stringOf(body.email);
            if (!organizationId || !email) return;
            // An address already invited holds its seat: resending renews it, inviting again is refused by
            // better-auth for what it is. A new invitation takes one more seat. Read under the organization's
            // lock, so two invitations of one new address at once count as one.
            await billing.assertWithinLimit(organizationId, "members", async (trx) =>
              (await hasPendingInvitation(trx, { organizationId }, email)) ? 0 : 1,
            );
          }),
        },
        {
          // Accepting turns a pending invitation into a member: the seat is already counted, but the plan may
          // have shrunk since the invitation went out.
          matcher: (context) => context.path === "/organization/accept-invitation",
          handler: createAuthMiddleware(async (ctx) => {
            const invitationId = stringOf(bodyOf(ctx).invitationId);
            const organizationId = invitationId
              ? await findInvitationOrganizationId(await currentDatabase(db), invitationId)
              : undefined;
            if (organizationId) await billing.assertWithinLimit(organizationId, "members", 0);
          }),
        },
        {
          // The server-side add (no invitation): one more member.
          matcher: (context) => context.path === "/organization/add-member",
          handler: createAuthMiddleware(async (ctx) => {
            const organizationId = stringOf(bodyOf(ctx).organizationId);
            if (organizationId) await billing.assertWithinLimit(organizationId, "members", 1);
          }),
        },
        {
          matcher: (context) => context.path === "/organization/create-team",
          handler: createAuthMiddleware(async (ctx) => {
            const organizationId = await permittedOrganization(ctx, stringOf(bodyOf(ctx).organizationId), {
              team: ["create"],
            });
            if (organizationId) await billing.assertWithinLimit(organizationId, "teams", 1);
          }),
        },
        {
          matcher: (context) => context.path === "/organization/delete",
          handler: createAuthMiddleware(async (ctx) => {
            const organizationId = await permittedOrganization(ctx, stringOf(bodyOf(ctx).organizationId), {
              organization: ["delete"],
            });
            if (organizationId) await billing.releaseOrganization(organizationId);
          }),
        },
      ],
    },
  };
}
