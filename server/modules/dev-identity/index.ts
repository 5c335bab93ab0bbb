export { createDevIdentityProvider, type DevIdentityProvider } from "./dev-identity.service";
export { devIdentityRoutes } from "./dev-identity.routes";
export { PRESET_IDENTITIES, subjectOf } from "./dev-identity.repository";
export {
  escapeHtml,
  field as madeUpIdentityField,
  layout as devProviderPage,
  type MadeUpForm,
} from "./dev-identity.pages";
