/**
 * The route types of the app's own JSON endpoints, for Hono's typed client in the web app:
 * `hc<OrganizationRoutes>("/api/organizations")`. Import with `import type` only: nothing here runs.
 * Mount paths: /api/organizations (and the organization audit log), /api/invitations, /api/dev/mail, /api/meta; billing at
 * /api and /api/admin/billing; the admin console at /api/admin and /api/admin/audit-log.
 */
export type { InvitationRoutes, OrganizationAuditRoutes, OrganizationRoutes } from "./modules/organizations";
/** Mounted at /api/account: what deleting the signed-in account would do to its organizations. */
export type { AccountDeletionRoutes } from "./modules/organizations";
/** Mounted at /api/account too: a first password, set with the link mailed to someone who signed up through a provider. */
export type { FirstPasswordRoutes } from "./auth/first-password.routes";
export type { ReauthenticateRoutes } from "./auth/reauthenticate.routes";
export type { DevMailRoutes } from "./modules/mail";
export type { MetaRoutes } from "./http/meta.routes";
export type { AdminBillingRoutes, BillingRoutes } from "./modules/billing";
export type { AdminRoutes } from "./modules/admin";
export type { AdminAuditRoutes } from "./modules/audit";
/** Mounted at /api/organizations: an organization's directory sync (SCIM) tokens. */
export type { ScimSettingsRoutes } from "./modules/scim";
/** Mounted at /api/organizations: an organization's outbound webhooks. */
export type { WebhookRoutes } from "./modules/webhooks";
export type { ApiKeyRoutes } from "./modules/api-keys";
/** Mounted at /api/joinable-organizations: organizations the signed-in person may join by verified domain. */
export type { DomainJoinRoutes } from "./modules/sso";
