import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  OidcConnectionInput,
  OrganizationSso,
  OrganizationSsoProvider,
  SamlConnectionInput,
  SsoProtocol,
  SsoServiceProviderValues,
} from "../../../../common/sso.schemas";
import type { OrganizationSecurity } from "../../../../common/organization.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { toResponseError, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { organizationKeys } from "./organizations";
import { fetchIdentityProviderMetadata, readIdentityProviderMetadata } from "./saml-metadata";
import { organizationSecurityQuery } from "./security";

export type { OrganizationSso, OrganizationSsoProvider as SsoConnection, SsoServiceProviderValues };

const ssoKey = (organizationId: string) => [...organizationKeys.detail(organizationId), "sso"] as const;

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { credentials: "include", headers: { accept: "application/json" } });
  if (!response.ok) throw await toResponseError(response);
  return (await response.json()) as T;
}

/** The organization's connections, with their domain's state and the values to give the identity provider. */
export function organizationSsoQuery(organizationId: string) {
  return queryOptions({
    queryKey: ssoKey(organizationId),
    queryFn: () => getJson<OrganizationSso>(`/api/organizations/${encodeURIComponent(organizationId)}/sso`),
  });
}

/** `enabled`: false for members, whom the server refuses (the page tells them who may instead). */
export function useOrganizationSso(organizationId: string, enabled = true) {
  return useQuery({ ...organizationSsoQuery(organizationId), enabled });
}

/**
 * A new connection's id: the organization's slug and the protocol (`acme-saml`), numbered when the organization
 * has one already. It is in the addresses the identity provider calls back, so it is chosen before them.
 */
export function newProviderId(slug: string, protocol: SsoProtocol, taken: readonly string[]): string {
  const base = `${slug}-${protocol}`;
  if (!taken.includes(base)) return base;
  let n = 2;
  while (taken.includes(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/**
 * The values to give the identity provider for a connection not saved yet (the server answers them for saved ones,
 * `serviceProvider`): better-auth's SSO plugin serves them on this origin under /api/auth, and the service provider's
 * entity ID is its metadata URL.
 */
export function serviceProviderValues(providerId: string): SsoServiceProviderValues {
  const auth = `${window.location.origin}/api/auth`;
  const metadataUrl = `${auth}/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`;
  return {
    oidcRedirectUri: `${auth}/sso/callback/${providerId}`,
    acsUrl: `${auth}/sso/saml2/sp/acs/${providerId}`,
    entityId: metadataUrl,
    metadataUrl,
  };
}

export type RegisterConnectionInput =
  | ({ protocol: "oidc"; providerId: string } & OidcConnectionInput)
  | ({ protocol: "saml"; providerId: string } & SamlConnectionInput);

/**
 * What better-auth's SSO plugin takes for a connection of the organization. For SAML metadata, its entity ID (the
 * provider's issuer) and sign-on URL are read from it (the server reads neither from the metadata).
 */
async function registerBody(organizationId: string, input: RegisterConnectionInput) {
  const common = { providerId: input.providerId, domain: input.domain, organizationId };
  if (input.protocol === "oidc")
    return {
      ...common,
      issuer: input.issuer,
      oidcConfig: { clientId: input.clientId, clientSecret: input.clientSecret },
    };
  // Atrium wants the IdP's assertions signed (docs/sso.md).
  if (input.source === "manual")
    return {
      ...common,
      issuer: input.entityId,
      samlConfig: {
        entryPoint: input.entryPoint,
        cert: input.certificate,
        wantAssertionsSigned: true,
        idpMetadata: { entityID: input.entityId },
      },
    };
  if (input.source === "metadata-xml") {
    const { entityId, entryPoint } = readIdentityProviderMetadata(input.metadataXml);
    return {
      ...common,
      issuer: entityId,
      samlConfig: { entryPoint, wantAssertionsSigned: true, idpMetadata: { metadata: input.metadataXml } },
    };
  }
  // The server reads the metadata at the URL itself (and keeps that copy); the browser reads it too, for the
  // entity ID and sign-on URL the plugin wants as fields of their own.
  const { entityId, entryPoint } = readIdentityProviderMetadata(await fetchIdentityProviderMetadata(input.metadataUrl));
  return {
    ...common,
    issuer: entityId,
    samlConfig: { entryPoint, wantAssertionsSigned: true, idpMetadata: { metadataUrl: input.metadataUrl } },
  };
}

/** Saves a new connection; its domain is pending until the TXT record is found. */
export function useRegisterConnection(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RegisterConnectionInput) =>
      unwrap(
        await authClient.$fetch<{ providerId: string; domainVerificationToken?: string }>("/sso/register", {
          method: "POST",
          body: await registerBody(organizationId, input),
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ssoKey(organizationId) }),
    meta: { errorToast: false, successMessage: "Connection saved. Now verify the domain." },
  });
}

/** The TXT record of a connection saved without one (the same record until the domain is verified). */
export function useRequestDomainRecord(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (providerId: string) =>
      unwrap(
        await authClient.$fetch<unknown>("/sso/request-domain-verification", { method: "POST", body: { providerId } }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ssoKey(organizationId) }),
    meta: { errorToast: false },
  });
}

/** Looks for the TXT record now; the domain turns verified when it is there. */
export function useVerifyDomain(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (providerId: string) =>
      unwrap(await authClient.$fetch<unknown>("/sso/verify-domain", { method: "POST", body: { providerId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ssoKey(organizationId) }),
    meta: { errorToast: false, successMessage: "Domain verified" },
  });
}

/** Deletes a connection: people of its domain sign in with their password again (unless SSO is required). */
export function useDeleteConnection(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (providerId: string) =>
      unwrap(await authClient.$fetch<unknown>("/sso/delete-provider", { method: "POST", body: { providerId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ssoKey(organizationId) }),
    meta: { successMessage: "Connection deleted" },
  });
}

/**
 * Starts a sign-in through the connection, as its people will: to the identity provider and back to the settings
 * page, with `?test=<providerId>` (and the refusal's code in `error` when it failed; the server sends a refused SAML
 * test back here too, server/modules/sso/sso.saml.ts).
 */
export function useTestConnection(organizationId: string) {
  return useMutation({
    mutationFn: async (providerId: string) => {
      const settings = `/organizations/${encodeURIComponent(organizationId)}/settings/sso`;
      const back = `${settings}?test=${encodeURIComponent(providerId)}`;
      const answer = unwrap(
        await authClient.$fetch<{ url: string }>("/sign-in/sso", {
          method: "POST",
          body: { providerId, callbackURL: back, errorCallbackURL: back },
        }),
      );
      window.location.assign(answer.url);
      return answer;
    },
    meta: { errorToast: false },
  });
}

/** The SSO policy's switches, as the security policy names them, and what each says once the server agreed. */
export type SsoPolicy = "requireSso" | "allowDomainJoin";
const POLICY_SAID: Record<SsoPolicy, (on: boolean) => string> = {
  requireSso: (on) => (on ? "Members now sign in with SSO" : "SSO is no longer required"),
  allowDomainJoin: (on) =>
    on ? "People on your verified domains can now join" : "People on your verified domains now need an invitation",
};

/**
 * Turns one of the SSO policy's switches on or off. The switch moves at once and goes back if the server refuses (it
 * refuses without a verified domain); the security policy's other reads follow.
 */
export function useSetSsoPolicy(organizationId: string, policy: SsoPolicy) {
  const queryClient = useQueryClient();
  const { queryKey } = organizationSsoQuery(organizationId);
  const show = (on: boolean) => queryClient.setQueryData(queryKey, (sso) => (sso ? { ...sso, [policy]: on } : sso));
  return useMutation({
    mutationFn: (on: boolean) =>
      apiCall(
        api.organizations[":organizationId"].security.$patch({ param: { organizationId }, json: { [policy]: on } }),
      ),
    onMutate: async (on) => {
      await queryClient.cancelQueries({ queryKey });
      const before = queryClient.getQueryData(queryKey)?.[policy];
      show(on);
      return { before };
    },
    onError: (_error, _on, context) => {
      if (context?.before !== undefined) show(context.before);
    },
    onSuccess: (security: OrganizationSecurity) => {
      show(security[policy]);
      queryClient.setQueryData(organizationSecurityQuery(organizationId).queryKey, security);
    },
    meta: {
      errorToast: false,
      successMessage: (security: OrganizationSecurity) => POLICY_SAID[policy](security[policy]),
    },
  });
}
