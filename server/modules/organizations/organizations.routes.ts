import { Hono } from "hono";
import type { Kysely } from "kysely";
import type { Auth } from "../../auth/auth";
import type { Database } from "../../db/schema";
import { parseQuery } from "../../http/errors";
import { requireOrganizationScope, type ScopedEnv } from "../../http/organization-scope";
import { listMembersQuerySchema } from "./organizations.schemas";
import { listMembers } from "./organizations.service";

/** Organization reads better-auth does not offer: the member table with users, teams, search and paging. */
export function organizationRoutes(deps: { auth: Auth; db: Kysely<Database> }) {
  return new Hono<ScopedEnv>()
    .use("/:organizationId/*", requireOrganizationScope(deps))
    .get("/:organizationId/members", async (c) => {
      const query = parseQuery(c, listMembersQuerySchema);
      return c.json(await listMembers(deps.db, c.get("scope"), query));
    });
}
