import { Hono, type Context } from "hono";
import type { Kysely } from "kysely";
import { apiKeyParamsSchema, createApiKeySchema, type ApiKeySummary } from "../../../common/api-key.schemas";
import { DomainError } from "../../../common/domain-error";
import { API_KEY_ERROR_CODES } from "../../../common/error-codes";
import { organizationParamsSchema } from "../../../common/organization.schemas";
import { rolesAllow } from "../../../common/permissions";
import type { Database } from "../../db/schema";
import type { GetSession } from "../../http/app-env";
import { validate } from "../../http/validate";
import { requestAuditContext } from "../audit";
import { requireOrganizationScope, type OrganizationScope, type ScopedEnv } from "../organizations";
import { findApiKeys } from "./api-keys.repository";
import { createApiKey } from "./operations/create-api-key";
import { revokeApiKey } from "./operations/revoke-api-key";

/** Owners and admins manage keys (the same part of the matrix as the organization's settings); others get 403. */
function requireKeyManager(c: Context<ScopedEnv>): OrganizationScope {
  const scope = c.get("scope");
  if (!rolesAllow(scope.roles.join(","), { organization: ["update"] }))
    throw DomainError.of(API_KEY_ERROR_CODES.API_KEY_ADMIN_REQUIRED);
  return scope;
}

/**
 * An organization's API keys (mounted at /api/organizations; docs/api-keys.md): created, listed without their
 * secrets, revoked, by the organization's owners and admins. Keys themselves cannot call these: the organization
 * scope refuses them, since these routes are missing from organizations.api-key-access.ts on purpose.
 */
export function apiKeyRoutes(deps: { getSession: GetSession; db: Kysely<Database> }) {
  const guard = [validate("param", organizationParamsSchema), requireOrganizationScope(deps)] as const;
  return new Hono<ScopedEnv>()
    .use("/:organizationId/api-keys", ...guard)
    .use("/:organizationId/api-keys/*", ...guard)
    .get("/:organizationId/api-keys", async (c) => {
      const scope = requireKeyManager(c);
      return c.json((await findApiKeys(deps.db, scope.organizationId)) satisfies ApiKeySummary[]);
    })
    .post("/:organizationId/api-keys", validate("json", createApiKeySchema), async (c) => {
      const scope = requireKeyManager(c);
      return c.json(await createApiKey(deps.db, scope, c.req.valid("json"), requestAuditContext(c)), 201);
    })
    .delete("/:organizationId/api-keys/:keyId", validate("param", apiKeyParamsSchema), async (c) => {
      const scope = requireKeyManager(c);
      await revokeApiKey(deps.db, scope, c.req.valid("param").keyId, requestAuditContext(c));
      return c.body(null, 204);
    });
}

export type ApiKeyRoutes = ReturnType<typeof apiKeyRoutes>;
