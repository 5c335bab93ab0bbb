export { apiKeyRoutes, type ApiKeyRoutes } from "./api-keys.routes";
export { createApiKeyAuthentication, type ApiKeyAuthentication } from "./api-keys.authenticate";
