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
  organizationParamsSchema,
  slugAvailabilityQuerySchema,
  type InvitationPreview,
  type SlugAvailability,
} from "./organizations.schemas";
import { requireOrganizationPermission, requireOrganizationScope, type ScopedEnv } from "./organizations.scope";
import { getInvitationPreview, isSlugAvailable, listMembers, listTeams } from "./organizations.service";
import { updateSecurityPolicy } from "./operations/update-security-policy";
import {
  allowsDomainJoin,
  hasSecondFactor,
  hasVerifiedSsoProvider,
  requiresSso,
  requiresTwoFactor,
} from "./organizations.repository";

/**
 * Organization reads better-auth does not offer: whether a slug is free, as data (better-auth's check-slug answers
 * a taken slug with a 400, which browsers log as an error at every keystroke); members with users and teams
 * (searched, paged), and teams with their members for owners and admins who are not in those teams; and the
 * organization's security policy (whether members must have a second factor), read by members, set by owners and admins.
 */
export function organizationRoutes(deps: { getSession: GetSession; db: Kysely<Database> }) {
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
        return c.json(await listMembers(deps.db, c.get("scope"), c.req.valid("query")));
      })
      .get("/:organizationId/teams", async (c) => c.json(await listTeams(deps.db, c.get("scope"))))
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
