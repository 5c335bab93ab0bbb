import { DomainError } from "../../../common/domain-error";
import { API_KEY_ERROR_CODES } from "../../../common/error-codes";
import type { ApiKeyScope } from "../../../common/permissions";

/**
 * The one table of what an organization API key may call under `/api/organizations/{id}/…`, and with which scope
 * (docs/api-keys.md). A route missing here refuses keys with 403 API_KEY_NOT_ACCEPTED: managing the keys themselves,
 * deleting the organization, its security policy and SSO, plan changes, and any route a module adds later until it
 * is listed. Paths are relative to the organization; `:name` matches one segment.
 */
const API_KEY_ROUTES: ReadonlyArray<{ method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; scope: ApiKeyScope }> =
  [
    { method: "GET", path: "/members", scope: "members:read" },
    { method: "PATCH", path: "/members/:memberId", scope: "members:write" },
    { method: "DELETE", path: "/members/:memberId", scope: "members:write" },
    { method: "GET", path: "/invitations", scope: "invitations:write" },
    { method: "POST", path: "/invitations", scope: "invitations:write" },
    { method: "DELETE", path: "/invitations/:invitationId", scope: "invitations:write" },
    { method: "GET", path: "/teams", scope: "teams:read" },
    { method: "POST", path: "/teams", scope: "teams:write" },
    { method: "PATCH", path: "/teams/:teamId", scope: "teams:write" },
    { method: "DELETE", path: "/teams/:teamId", scope: "teams:write" },
    { method: "POST", path: "/teams/:teamId/members", scope: "teams:write" },
    { method: "DELETE", path: "/teams/:teamId/members/:userId", scope: "teams:write" },
    { method: "GET", path: "/billing", scope: "billing:read" },
    { method: "GET", path: "/billing/checkouts/:checkoutId", scope: "billing:read" },
    { method: "POST", path: "/billing/usage", scope: "usage:write" },
    { method: "GET", path: "/audit-log", scope: "audit:read" },
    { method: "GET", path: "/audit-log/export", scope: "audit:read" },
  ];

const matchers = API_KEY_ROUTES.map((route) => ({
  ...route,
  pattern: new RegExp(
    `^${route.path
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment))
      .join("/")}$`,
  ),
}));

/** The part of `/api/organizations/{id}/members` after the organization: `/members` (empty for the organization). */
const ORGANIZATION_PATH = /^\/api\/organizations\/[^/]+(\/.*)?$/;

/**
 * Throws 403 unless an API key holding `scopes` may make this call: API_KEY_NOT_ACCEPTED for a route that is not for
 * keys, API_KEY_SCOPE_MISSING (with the scope in `details`) for one that needs a scope the key lacks.
 */
export function assertApiKeyMayCall(method: string, path: string, scopes: readonly string[]): void {
  const within = ORGANIZATION_PATH.exec(path)?.[1] ?? "";
  const asked = method === "HEAD" ? "GET" : method;
  const route = matchers.find((candidate) => candidate.method === asked && candidate.pattern.test(within));
  if (!route) throw DomainError.of(API_KEY_ERROR_CODES.API_KEY_NOT_ACCEPTED);
  if (!scopes.includes(route.scope))
    throw DomainError.of(API_KEY_ERROR_CODES.API_KEY_SCOPE_MISSING, { scope: route.scope });
}
