import type { Context, MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../common/error-codes";
import { rolesAllow, type OrganizationPermissions } from "../../common/permissions";
import type { Auth } from "../auth/auth";
import type { Database } from "../db/schema";
import type { AppEnv } from "./app-env";
import { AppError } from "./errors";

/**
 * Proof that the caller is a member of one organization. Repositories of org-owned data take it, so
 * nothing queries tenant data without a membership check made on this very request.
 */
export type OrganizationScope = { organizationId: string; userId: string; memberId: string; roles: string[] };

export type ScopedEnv = AppEnv & { Variables: AppEnv["Variables"] & { scope: OrganizationScope } };

/** Resolves the session and the membership for the `:organizationId` route parameter; 401 or 403 otherwise. */
export function requireOrganizationScope(deps: { auth: Auth; db: Kysely<Database> }): MiddlewareHandler<ScopedEnv> {
  return async (c, next) => {
    const session = await deps.auth.api.getSession({ headers: c.req.raw.headers });
    if (!session) throw new AppError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    const organizationId = c.req.param("organizationId");
    if (!organizationId) throw new AppError(ERROR_CODES.NOT_FOUND, "organization not found");
    const member = await deps.db
      .selectFrom("member")
      .select(["id", "role"])
      .where("organizationId", "=", organizationId)
      .where("userId", "=", session.user.id)
      .executeTakeFirst();
    // Not revealing whether the organization exists: a non-member learns nothing about it.
    if (!member) throw new AppError(ERROR_CODES.FORBIDDEN, "user is not a member of the organization");
    c.set("scope", { organizationId, userId: session.user.id, memberId: member.id, roles: member.role.split(",").map((role) => role.trim()) });
    await next();
  };
}

/** Throws 403 unless one of the caller's roles grants every requested action. */
export function requireOrganizationPermission(c: Context<ScopedEnv>, permissions: OrganizationPermissions): OrganizationScope {
  const scope = c.get("scope");
  if (!rolesAllow(scope.roles.join(","), permissions)) {
    const resource = Object.keys(permissions)[0] ?? "resource";
    throw new AppError(ERROR_CODES.FORBIDDEN, `You are not allowed to access resource: ${resource}`);
  }
  return scope;
}
