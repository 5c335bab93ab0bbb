export { scimRoutes, scimSettingsRoutes, type ScimRouteDeps, type ScimSettingsRoutes } from "./scim.routes";
