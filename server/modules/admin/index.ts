export { adminRoutes, type AdminRoutes } from "./admin.routes";
export { assertMayCallAdminEndpoint, IMPERSONATION_SECONDS, keepImpersonationEnd, platformAdmin } from "./admin.plugin";
export type { PlatformAdminOptions } from "./admin.plugin";
export { changePlatformRoleFromCommandLine, listUsers } from "./admin.service";
export { isListedInAdminEmails } from "./admin-emails";
