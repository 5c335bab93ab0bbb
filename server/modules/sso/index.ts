export { enterpriseSso, ssoRules, type EnterpriseSsoOptions } from "./sso.plugin";
export { ssoRoutes, type SsoRoutes } from "./sso.routes";
export { domainJoinRoutes, type DomainJoinRoutes } from "./domain-join.routes";
export { SSO_REQUEST_BODY_SCHEMAS } from "./sso.schemas";
export { ssoUniqueConflicts } from "./sso.conflicts";
export { createTxtLookup, type TxtLookup } from "./sso.dns";
export { startDevDnsServer, createTxtStore, type DevDnsServer, type TxtStore } from "./dev-dns.server";
export { devDnsRoutes } from "./dev-dns.routes";
export { findDevelopmentServiceProvider } from "./sso.saml";
