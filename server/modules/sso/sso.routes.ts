import { Hono } from "hono";
import type { Kysely } from "kysely";
import type { OrganizationSso } from "../../../common/sso.schemas";
import type { Database } from "../../db/schema";
import type { GetSession } from "../../http/app-env";
import { validate } from "../../http/validate";
import { requireOrganizationPermission, requireOrganizationScope, type ScopedEnv } from "../organizations";
import { organizationParamsSchema } from "./sso.schemas";
import { getOrganizationSso } from "./sso.service";

/**
 * An organization's SSO as its owners and admins set it up (mounted at /api/organizations): its providers with their
 * domains, whether each is verified and the DNS record to publish, and the values to paste into the IdP. The writes
 * are @better-auth/sso's endpoints under /api/auth/sso (docs/sso.md).
 */
export function ssoRoutes(deps: { getSession: GetSession; db: Kysely<Database>; baseUrl: string }) {
  return new Hono<ScopedEnv>()
    .use("/:organizationId/sso", validate("param", organizationParamsSchema), requireOrganizationScope(deps))
    .get("/:organizationId/sso", async (c) => {
      const scope = requireOrganizationPermission(c, { organization: ["update"] });
      return c.json((await getOrganizationSso(deps.db, scope.organizationId, deps.baseUrl)) satisfies OrganizationSso);
    });
}

export type SsoRoutes = ReturnType<typeof ssoRoutes>;
