export { apiKeyRoutes, type ApiKeyRoutes } from "./api-keys.routes";
export { authenticateApiKeys } from "./api-keys.authenticate";
