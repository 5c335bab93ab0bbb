import { Hono, type Context } from "hono";
import type { Kysely } from "kysely";
import { z } from "zod";
import { idSchema } from "../../../common/account.schemas";
import { SCIM_BASE_PATH, type OrganizationScim } from "../../../common/scim.schemas";
import type { Database } from "../../db/schema";
import type { GetSession } from "../../http/app-env";
import { validate } from "../../http/validate";
import { requestAuditContext } from "../audit";
import { requireOrganizationScope, type ScopedEnv } from "../organizations";
import { assertMayManageScim, listTokens, revokeToken, rotateToken } from "./scim.tokens";

const tokenParamsSchema = z.object({ organizationId: idSchema, tokenId: idSchema });

/**
 * An organization's directory sync as its owners and admins manage it (mounted at /api/organizations): the SCIM base
 * URL and the tokens (never their secrets), a token rotated (its new secret shown once) or revoked.
 */
export function scimSettingsRoutes(deps: { getSession: GetSession; db: Kysely<Database>; baseUrl: string }) {
  const mayManage = async (c: Context<ScopedEnv>) => {
    const scope = c.get("scope");
    await assertMayManageScim(deps.db, scope.organizationId, scope.userId);
    return scope;
  };
  return new Hono<ScopedEnv>()
    .use("/:organizationId/scim", requireOrganizationScope(deps))
    .use("/:organizationId/scim/*", requireOrganizationScope(deps))
    .get("/:organizationId/scim", async (c) => {
      const scope = await mayManage(c);
      const tokens = await listTokens(deps.db, scope.organizationId);
      return c.json({ baseUrl: `${deps.baseUrl}${SCIM_BASE_PATH}`, tokens } satisfies OrganizationScim);
    })
    .post("/:organizationId/scim/tokens/:tokenId/rotate", validate("param", tokenParamsSchema), async (c) => {
      const scope = await mayManage(c);
      const { tokenId } = c.req.valid("param");
      return c.json(
        await rotateToken(deps.db, { organizationId: scope.organizationId, tokenId, audit: requestAuditContext(c) }),
      );
    })
    .delete("/:organizationId/scim/tokens/:tokenId", validate("param", tokenParamsSchema), async (c) => {
      const scope = await mayManage(c);
      const { tokenId } = c.req.valid("param");
      return c.json(
        await revokeToken(deps.db, { organizationId: scope.organizationId, tokenId, audit: requestAuditContext(c) }),
      );
    });
}

export type ScimSettingsRoutes = ReturnType<typeof scimSettingsRoutes>;
