export { scimRoutes, type ScimRouteDeps } from "./scim.routes";
export { scimSettingsRoutes, type ScimSettingsRoutes } from "./scim-settings.routes";
