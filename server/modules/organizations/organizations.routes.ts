import { Hono } from "hono";
import type { Kysely } from "kysely";
import type { Auth } from "../../auth/auth";
import type { Database } from "../../db/schema";
import { parseQuery } from "../../http/errors";
import { requireOrganizationScope, type ScopedEnv } from "../../http/organization-scope";
import { listMembersQuerySchema } from "./organizations.schemas";
import { getInvitationState, listMembers, listTeams } from "./organizations.service";
import { ERROR_CODES } from "../../../common/error-codes";
import { AppError } from "../../http/errors";

/**
 * Organization reads better-auth does not offer: members with users and teams (searched, paged), and teams
 * with their members for owners and admins who are not in those teams.
 */
export function organizationRoutes(deps: { auth: Auth; db: Kysely<Database> }) {
  return new Hono<ScopedEnv>()
    .use("/:organizationId/*", requireOrganizationScope(deps))
    .get("/:organizationId/members", async (c) => {
      const query = parseQuery(c, listMembersQuerySchema);
      return c.json(await listMembers(deps.db, c.get("scope"), query));
    })
    .get("/:organizationId/teams", async (c) => c.json(await listTeams(deps.db, c.get("scope"))));
}

/** The state of an invitation link, so its page can say "expired", "canceled" or "already used" before anyone signs in. */
export function invitationRoutes(deps: { db: Kysely<Database> }) {
  return new Hono().get("/:invitationId", async (c) => {
    const state = await getInvitationState(deps.db, c.req.param("invitationId"));
    if (!state) throw new AppError(ERROR_CODES.NOT_FOUND, "invitation not found");
    return c.json({ state });
  });
}
