import { hc, parseResponse, type ClientResponse } from "hono/client";
// The one server file the web may import, and only its types: nothing of the server reaches the bundle.
import type {
  AccountDeletionRoutes,
  AdminAuditRoutes,
  AdminBillingRoutes,
  AdminRoutes,
  ApiKeyRoutes,
  BillingRoutes,
  DevMailRoutes,
  DomainJoinRoutes,
  FirstPasswordRoutes,
  InvitationRoutes,
  MetaRoutes,
  OrganizationAuditRoutes,
  OrganizationRoutes,
  ReauthenticateRoutes,
  ScimSettingsRoutes,
  WebhookRoutes,
} from "../../server/api-types";
import { toResponseError } from "./api-error";

/**
 * Typed clients for the app's own JSON API (better-auth's endpoints go through authClient instead).
 * Paths, params, query and response bodies all come from the server's route types:
 *
 *   const members = await apiCall(api.organizations[":organizationId"].members.$get({ param: { organizationId }, query: { search } }));
 */
const options = { init: { credentials: "include" } } satisfies Parameters<typeof hc>[1];

export const api = {
  organizations: hc<OrganizationRoutes>("/api/organizations", options),
  invitations: hc<InvitationRoutes>("/api/invitations", options),
  /** What deleting the signed-in account would do to its organizations: `api.account["deletion-preview"]`. */
  account: hc<AccountDeletionRoutes>("/api/account", options),
  /** Organizations the signed-in person may join by their verified address's domain. */
  joinableOrganizations: hc<DomainJoinRoutes>("/api/joinable-organizations", options),
  /** A first password, set with the mailed link: `api.firstPassword["first-password"]`. */
  firstPassword: hc<FirstPasswordRoutes>("/api/account", options),
  /** The re-check that makes the session fresh for sensitive actions: `api.reauthenticate.reauthenticate`. */
  reauthenticate: hc<ReauthenticateRoutes>("/api/account", options),
  devMail: hc<DevMailRoutes>("/api/dev/mail", options),
  meta: hc<MetaRoutes>("/api/meta", options),
  /** Mounted at /api: `api.billing.billing.plans` and `api.billing.organizations[":organizationId"].billing.*`. */
  billing: hc<BillingRoutes>("/api", options),
  adminBilling: hc<AdminBillingRoutes>("/api/admin/billing", options),
  /** The admin console's reads: `api.admin.users`, `api.admin.organizations[":organizationId"]`. */
  admin: hc<AdminRoutes>("/api/admin", options),
  adminAuditLog: hc<AdminAuditRoutes>("/api/admin/audit-log", options),
  /** An organization's own audit log: `api.organizationAuditLog[":organizationId"]["audit-log"]`. */
  organizationAuditLog: hc<OrganizationAuditRoutes>("/api/organizations", options),
  /** An organization's directory sync: `api.scim[":organizationId"].scim`, its tokens rotated and revoked. */
  scim: hc<ScimSettingsRoutes>("/api/organizations", options),
  /** An organization's outbound webhooks: `api.webhooks[":organizationId"].webhooks.*`. */
  webhooks: hc<WebhookRoutes>("/api/organizations", options),
  /** An organization's API keys: `api.apiKeys[":organizationId"]["api-keys"]`. */
  apiKeys: hc<ApiKeyRoutes>("/api/organizations", options),
};

/** What a successful call answers: the JSON body of its 2xx responses (undefined for 204). */
export type ApiData<R extends ClientResponse<unknown>> = Awaited<ReturnType<typeof parseResponse<R>>>;

/**
 * Awaits a typed client call and returns its typed body, or throws an ApiError carrying the server's
 * `{ code, message }` for any non-2xx answer (a TypeError when the server cannot be reached at all).
 */
export function apiCall<R extends ClientResponse<unknown>>(
  request: R | Promise<R>,
): ReturnType<typeof parseResponse<R>> {
  return parseResponse(ensureOk(request));
}

async function ensureOk<R extends ClientResponse<unknown>>(request: R | Promise<R>): Promise<R> {
  const response = await request;
  if (!response.ok) throw await toResponseError(response);
  return response;
}
