import { Hono } from "hono";
import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../../common/error-codes";
import type { Database } from "../../db/schema";
import type { GetSession } from "../../http/app-env";
import { DomainError } from "../../../common/domain-error";
import { replayable } from "../../http/response-cache";
import { organizationSecuritySchema, type OrganizationSecurity } from "../../../common/organization.schemas";
import { validate } from "../../http/validate";
import {
  requestAuditContext,
  auditCsvResponse,
  auditLogQuerySchema,
  exportAuditLog,
  listAuditLog,
  withoutPaging,
  type AuditLogPage,
} from "../audit";
import {
  invitationParamsSchema,
  listMembersQuerySchema,
  memberParamsSchema,
  organizationInvitationParamsSchema,
  organizationParamsSchema,
  slugAvailabilityQuerySchema,
  teamMemberParamsSchema,
  teamParamsSchema,
  type InvitationPreview,
  type OrganizationInvitation,
  type OrganizationMember,
  type OrganizationTeam,
  type SlugAvailability,
  type TeamMembership,
} from "./organizations.schemas";
import {
  invitationBodySchema,
  memberRoleBodySchema,
  teamBodySchema,
  teamMemberBodySchema,
} from "./organizations.request-schemas";
import type { OrganizationWrites } from "./organizations.writes";
import { requireOrganizationPermission, requireOrganizationScope, type ScopedEnv } from "./organizations.scope";
import { getInvitationPreview, isSlugAvailable, listMembers, listTeams } from "./organizations.service";
import { updateSecurityPolicy } from "./operations/update-security-policy";
import {
  allowsDomainJoin,
  findMember,
  findOrganizationInvitation,
  findPendingInvitations,
  findTeam,
  hasSecondFactor,
  hasVerifiedSsoProvider,
  requiresSso,
  requiresTwoFactor,
} from "./organizations.repository";
import { toIsoString } from "../../db/database";

/**
 * Organization reads better-auth does not offer: whether a slug is free, as data (better-auth's check-slug answers
 * a taken slug with a 400, which browsers log as an error at every keystroke); members with users and teams
 * (searched, paged), and teams with their members for owners and admins who are not in those teams; and the
 * organization's security policy (whether members must have a second factor), read by members, set by owners and admins.
 * And the organization's writes on members, invitations and teams in REST form, for a signed-in person (better-auth's
 * endpoints decide, as for the web app) and for an API key with the scope (organizations.writes.ts); the id in the
 * path is looked up in the organization first (404 otherwise), so no call reaches another organization's rows.
 */
export function organizationRoutes(deps: { getSession: GetSession; db: Kysely<Database>; writes: OrganizationWrites }) {
  const notFound = (what: string) => new DomainError(ERROR_CODES.NOT_FOUND, `${what} not found`);
  return (
    new Hono<ScopedEnv>()
      // Registered before the organization scope below, whose `/:organizationId/*` would take it for an id.
      .get("/slug-availability", validate("query", slugAvailabilityQuerySchema), async (c) => {
        if (!(await deps.getSession(c.req.raw.headers)))
          throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
        const available = await isSlugAvailable(deps.db, c.req.valid("query").slug);
        return c.json({ available } satisfies SlugAvailability);
      })
      // The id is checked before the membership lookup, so nothing unbounded reaches the database.
      .use("/:organizationId/*", validate("param", organizationParamsSchema), requireOrganizationScope(deps))
      .get("/:organizationId/members", validate("query", listMembersQuerySchema), async (c) => {
        // Every page of an organization's settings asks it: replayed to the same session until a member, user or team changes.
        replayable(c, [c.get("scope").organizationId]);
        return c.json(await listMembers(deps.db, c.get("scope"), c.req.valid("query"), c.get("readCache")));
      })
      .patch(
        "/:organizationId/members/:memberId",
        validate("param", memberParamsSchema),
        validate("json", memberRoleBodySchema),
        async (c) => {
          const scope = c.get("scope");
          const { memberId } = c.req.valid("param");
          if (!(await findMember(deps.db, scope, memberId))) throw notFound("member");
          const body = { memberId, role: c.req.valid("json").role, organizationId: scope.organizationId };
          return c.json(memberAnswer(await deps.writes.updateMemberRole(c, body)));
        },
      )
      .delete("/:organizationId/members/:memberId", validate("param", memberParamsSchema), async (c) => {
        const scope = c.get("scope");
        const { memberId } = c.req.valid("param");
        if (!(await findMember(deps.db, scope, memberId))) throw notFound("member");
        await deps.writes.removeMember(c, { memberIdOrEmail: memberId, organizationId: scope.organizationId });
        return c.body(null, 204);
      })
      // The pending invitations (better-auth lists them to every member): what an API key with invitations:write
      // reads before it invites or cancels.
      .get("/:organizationId/invitations", async (c) =>
        c.json((await findPendingInvitations(deps.db, c.get("scope"))) satisfies OrganizationInvitation[]),
      )
      .post("/:organizationId/invitations", validate("json", invitationBodySchema), async (c) => {
        const body = { ...c.req.valid("json"), organizationId: c.get("scope").organizationId };
        return c.json(invitationAnswer(await deps.writes.createInvitation(c, body)), 201);
      })
      .delete(
        "/:organizationId/invitations/:invitationId",
        validate("param", organizationInvitationParamsSchema),
        async (c) => {
          const { invitationId } = c.req.valid("param");
          if (!(await findOrganizationInvitation(deps.db, c.get("scope"), invitationId))) throw notFound("invitation");
          await deps.writes.cancelInvitation(c, { invitationId });
          return c.body(null, 204);
        },
      )
      .get("/:organizationId/teams", async (c) => c.json(await listTeams(deps.db, c.get("scope"))))
      .post("/:organizationId/teams", validate("json", teamBodySchema), async (c) => {
        const body = { name: c.req.valid("json").name, organizationId: c.get("scope").organizationId };
        return c.json(teamAnswer(await deps.writes.createTeam(c, body)), 201);
      })
      .patch(
        "/:organizationId/teams/:teamId",
        validate("param", teamParamsSchema),
        validate("json", teamBodySchema),
        async (c) => {
          const scope = c.get("scope");
          const { teamId } = c.req.valid("param");
          if (!(await findTeam(deps.db, scope, teamId))) throw notFound("team");
          const body = { teamId, data: { name: c.req.valid("json").name, organizationId: scope.organizationId } };
          return c.json(teamAnswer(await deps.writes.updateTeam(c, body)));
        },
      )
      .delete("/:organizationId/teams/:teamId", validate("param", teamParamsSchema), async (c) => {
        const scope = c.get("scope");
        const { teamId } = c.req.valid("param");
        if (!(await findTeam(deps.db, scope, teamId))) throw notFound("team");
        await deps.writes.removeTeam(c, { teamId, organizationId: scope.organizationId });
        return c.body(null, 204);
      })
      .post(
        "/:organizationId/teams/:teamId/members",
        validate("param", teamParamsSchema),
        validate("json", teamMemberBodySchema),
        async (c) => {
          const scope = c.get("scope");
          const { teamId } = c.req.valid("param");
          if (!(await findTeam(deps.db, scope, teamId))) throw notFound("team");
          const body = { teamId, userId: c.req.valid("json").userId, organizationId: scope.organizationId };
          // The membership, also when the user already was in the team.
          return c.json(teamMembershipAnswer(await deps.writes.addTeamMember(c, body)));
        },
      )
      .delete(
        "/:organizationId/teams/:teamId/members/:userId",
        validate("param", teamMemberParamsSchema),
        async (c) => {
          const scope = c.get("scope");
          const { teamId, userId } = c.req.valid("param");
          if (!(await findTeam(deps.db, scope, teamId))) throw notFound("team");
          await deps.writes.removeTeamMember(c, { teamId, userId, organizationId: scope.organizationId });
          return c.body(null, 204);
        },
      )
      .get("/:organizationId/security", async (c) => {
        const scope = c.get("scope");
        return c.json({
          requireTwoFactor: await requiresTwoFactor(deps.db, scope),
          callerHasSecondFactor: await hasSecondFactor(deps.db, scope.userId),
          requireSso: await requiresSso(deps.db, scope),
          allowDomainJoin: await allowsDomainJoin(deps.db, scope),
          hasVerifiedSsoProvider: await hasVerifiedSsoProvider(deps.db, scope.organizationId),
        } satisfies OrganizationSecurity);
      })
      .patch("/:organizationId/security", validate("json", organizationSecuritySchema), async (c) => {
        const scope = requireOrganizationPermission(c, { organization: ["update"] });
        return c.json(
          (await updateSecurityPolicy(
            deps.db,
            scope,
            c.req.valid("json"),
            requestAuditContext(c),
          )) satisfies OrganizationSecurity,
        );
      })
  );
}

/** A row better-auth answers (dates as Date objects) or the key's write answers (ISO strings). */
type Answered = Record<string, unknown>;
const iso = (value: unknown) => toIsoString(value as Date | string | null) ?? "";
const isoOrNull = (value: unknown) => toIsoString(value as Date | string | null);

function memberAnswer(value: unknown): OrganizationMember {
  const row = value as Answered;
  return {
    id: String(row.id),
    organizationId: String(row.organizationId),
    userId: String(row.userId),
    role: String(row.role),
    createdAt: iso(row.createdAt),
  };
}

function invitationAnswer(value: unknown): OrganizationInvitation {
  const row = value as Answered;
  return {
    id: String(row.id),
    organizationId: String(row.organizationId),
    email: String(row.email),
    role: String(row.role ?? "member"),
    teamId: (row.teamId as string | null | undefined) ?? null,
    status: row.status as OrganizationInvitation["status"],
    expiresAt: iso(row.expiresAt),
    createdAt: iso(row.createdAt),
    inviterId: (row.inviterId as string | null | undefined) ?? null,
  };
}

function teamAnswer(value: unknown): OrganizationTeam {
  const row = value as Answered;
  return {
    id: String(row.id),
    organizationId: String(row.organizationId),
    name: String(row.name),
    createdAt: iso(row.createdAt),
    updatedAt: isoOrNull(row.updatedAt),
  };
}

function teamMembershipAnswer(value: unknown): TeamMembership {
  const row = value as Answered;
  return { id: String(row.id), teamId: String(row.teamId), userId: String(row.userId), createdAt: iso(row.createdAt) };
}

/**
 * An invitation link's preview, so its page can name the organization and the inviter, or say "expired",
 * "canceled" or "already used", before anyone signs in. Invitation ids are random and unguessable.
 */
export function invitationRoutes(deps: { db: Kysely<Database> }) {
  return new Hono().get("/:invitationId", validate("param", invitationParamsSchema), async (c) => {
    const preview = await getInvitationPreview(deps.db, c.req.valid("param").invitationId);
    if (!preview) throw new DomainError(ERROR_CODES.NOT_FOUND, "invitation not found");
    return c.json(preview satisfies InvitationPreview);
  });
}

/**
 * An organization's own audit log for its owners and admins (`auditLog: list`), mounted at /api/organizations:
 * only that organization's entries, whatever `organizationId` the query names; and their CSV export.
 */
export function organizationAuditRoutes(deps: { getSession: GetSession; db: Kysely<Database> }) {
  return new Hono<ScopedEnv>()
    .use("/:organizationId/*", validate("param", organizationParamsSchema), requireOrganizationScope(deps))
    .get("/:organizationId/audit-log", validate("query", auditLogQuerySchema), async (c) => {
      const scope = requireOrganizationPermission(c, { auditLog: ["list"] });
      return c.json(
        (await listAuditLog(deps.db, {
          ...c.req.valid("query"),
          organizationId: scope.organizationId,
        })) satisfies AuditLogPage,
      );
    })
    .get("/:organizationId/audit-log/export", validate("query", auditLogQuerySchema), async (c) => {
      const scope = requireOrganizationPermission(c, { auditLog: ["list"] });
      return auditCsvResponse(
        c,
        await exportAuditLog(deps.db, { ...withoutPaging(c.req.valid("query")), organizationId: scope.organizationId }),
        "organization",
      );
    });
}

export type OrganizationRoutes = ReturnType<typeof organizationRoutes>;
export type OrganizationAuditRoutes = ReturnType<typeof organizationAuditRoutes>;
export type InvitationRoutes = ReturnType<typeof invitationRoutes>;
