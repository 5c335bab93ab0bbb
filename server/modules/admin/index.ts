export { adminRoutes, type AdminRoutes } from "./admin.routes";
export { IMPERSONATION_SECONDS, platformAdmin, type PlatformAdminOptions } from "./admin.plugin";
export { changePlatformRoleFromCommandLine, listUsers } from "./admin.service";
