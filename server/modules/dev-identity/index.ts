export { createDevIdentityProvider, type DevIdentityProvider } from "./dev-identity.service";
export { devIdentityRoutes } from "./dev-identity.routes";
export { subjectOf } from "./dev-identity.repository";
