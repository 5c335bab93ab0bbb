export {
  createDevSamlIdentityProvider,
  DEV_SAML_IDP_PATH,
  createResponseSigner,
  type ResponseInput,
  type DevSamlIdentityProvider,
  type KnownServiceProvider,
  type ServiceProviderLookup,
} from "./dev-saml.service";
export { devSamlRoutes } from "./dev-saml.routes";
export { readOrCreateSigningMaterial, SIGNING_FILE_NAME, type SigningMaterial } from "./dev-saml.repository";
