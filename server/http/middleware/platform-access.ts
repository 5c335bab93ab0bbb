import type { MiddlewareHandler } from "hono";
import { ERROR_CODES } from "../../../common/error-codes";
import { platformAllows, type PlatformPermissions } from "../../../common/permissions";
import type { GetSession, SessionEnv } from "../app-env";
import { DomainError } from "../../../common/domain-error";

/**
 * The platform-admin console's guard: 401 without a session; 403 with the spec's access-check message unless the
 * user passes the platform check for `permissions` (a configured administrator id passes every check). A session
 * that impersonates someone is refused too: while an admin browses as another user, the console is closed.
 */
export function requirePlatformPermission(
  deps: { getSession: GetSession; adminUserIds: readonly string[] },
  permissions: PlatformPermissions,
): MiddlewareHandler<SessionEnv> {
  const resource = Object.keys(permissions)[0] ?? "resource";
  return async (c, next) => {
    const session = await deps.getSession(c.req.raw.headers);
    if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    if (session.session.impersonatedBy || !platformAllows(session.user, permissions, deps.adminUserIds)) {
      throw new DomainError(ERROR_CODES.FORBIDDEN, `You are not allowed to access resource: ${resource}`);
    }
    c.set("session", session);
    await next();
  };
}
