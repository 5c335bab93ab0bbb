import type { Context, MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import { API_KEY_ERROR_CODES, ERROR_CODES } from "../../../common/error-codes";
import { rolesAllow, type OrganizationPermissions } from "../../../common/permissions";
import type { Database } from "../../db/schema";
import type { GetSession, SessionEnv } from "../../http/app-env";
import { DomainError } from "../../../common/domain-error";
import { assertApiKeyMayCall } from "./organizations.api-key-access";
import { findAdmittedMembership } from "./organizations.security";
import type { OrganizationScope } from "./organizations.schemas";

export type { OrganizationScope };

export type ScopedEnv = SessionEnv & { Variables: SessionEnv["Variables"] & { scope: OrganizationScope } };

/**
 * Resolves the session and the membership for the `:organizationId` route parameter; 401 or 403 otherwise, and
 * 403 TWO_FACTOR_REQUIRED for a member without a second factor while the organization requires one.
 * A request that authenticated with an organization API key (server/modules/api-keys) is decided here instead, the
 * one place for every module's organization routes: its own organization only, and only the routes and scopes of
 * organizations.api-key-access.ts; it never falls back to a session the request may also carry.
 * Routers of several modules share the `/api/organizations/:organizationId/…` paths, so a request may pass
 * more than one copy of this middleware: the membership is looked up once. A read's may come from the read cache
 * (ADR 0036); a write's always comes from the database.
 */
export function requireOrganizationScope(deps: {
  getSession: GetSession;
  db: Kysely<Database>;
}): MiddlewareHandler<ScopedEnv> {
  return async (c, next) => {
    if (c.get("scope")?.organizationId === c.req.param("organizationId")) return next();
    const apiKey = c.get("apiKey");
    if (apiKey) {
      if (apiKey.organizationId !== c.req.param("organizationId"))
        throw DomainError.of(API_KEY_ERROR_CODES.API_KEY_OTHER_ORGANIZATION);
      assertApiKeyMayCall(c.req.method, c.req.path, apiKey.scopes);
      const key = { id: apiKey.id, name: apiKey.name, prefix: apiKey.prefix };
      c.set("scope", { organizationId: apiKey.organizationId, userId: "", memberId: "", roles: [], apiKey: key });
      return next();
    }
    const session = await deps.getSession(c.req.raw.headers);
    if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    const organizationId = c.req.param("organizationId");
    if (!organizationId) throw new DomainError(ERROR_CODES.NOT_FOUND, "organization not found");
    const scope = await findAdmittedMembership(deps.db, organizationId, session.user.id, c.get("readCache"));
    // Not revealing whether the organization exists: a non-member learns nothing about it.
    if (!scope) throw new DomainError(ERROR_CODES.FORBIDDEN, "user is not a member of the organization");
    c.set("session", session);
    c.set("scope", scope);
    await next();
  };
}

/**
 * Throws 403 unless one of the caller's roles grants every requested action. An API key reaches a route only when
 * organizations.api-key-access.ts lists it with a scope the key holds: that table has decided already.
 */
export function requireOrganizationPermission(
  c: Context<ScopedEnv>,
  permissions: OrganizationPermissions,
): OrganizationScope {
  const scope = c.get("scope");
  if (scope.apiKey) return scope;
  if (!rolesAllow(scope.roles.join(","), permissions)) {
    const resource = Object.keys(permissions)[0] ?? "resource";
    throw new DomainError(ERROR_CODES.FORBIDDEN, `You are not allowed to access resource: ${resource}`);
  }
  return scope;
}
