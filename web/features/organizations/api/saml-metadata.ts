import { ApiError } from "../../../lib/api-error";

/** What a SAML identity provider's metadata says that better-auth's SSO plugin needs besides the metadata itself. */
export type IdentityProviderMetadata = { entityId: string; entryPoint: string };

const REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

/** A refusal the setup form shows on the metadata's own field. */
const invalid = (message: string) => new ApiError(message, 400, "INVALID_SAML_METADATA");

/**
 * Reads the identity provider's entity ID and single sign-on URL from its metadata (the plugin wants both as fields
 * of its own). The metadata itself goes to the server as it is: the plugin reads its certificates and checks it.
 */
export function readIdentityProviderMetadata(xml: string): IdentityProviderMetadata {
  const document = new DOMParser().parseFromString(xml, "application/xml");
  if (document.getElementsByTagName("parsererror").length > 0)
    throw invalid("This metadata is not well-formed XML. Download it again from your identity provider.");
  const entity = document.getElementsByTagNameNS("*", "EntityDescriptor")[0];
  const entityId = entity?.getAttribute("entityID")?.trim();
  if (!entityId) throw invalid("This metadata names no identity provider (its EntityDescriptor has no entityID).");
  const descriptor = entity!.getElementsByTagNameNS("*", "IDPSSODescriptor")[0];
  if (!descriptor) throw invalid("This is not an identity provider's metadata: it has no IDPSSODescriptor.");
  const services = [...descriptor.getElementsByTagNameNS("*", "SingleSignOnService")];
  const service =
    services.find((element) => element.getAttribute("Binding") === REDIRECT_BINDING) ??
    services.find((element) => element.getAttribute("Binding") === POST_BINDING);
  const entryPoint = service?.getAttribute("Location")?.trim();
  if (!entryPoint)
    throw invalid("This metadata has no single sign-on URL (a SingleSignOnService with the Redirect or POST binding).");
  return { entityId, entryPoint };
}

/**
 * The metadata at `url`, read by the browser: it works where the identity provider lets other sites read it (and
 * for the development IdP, on this origin). Where it does not, the person is told to upload the file instead.
 */
export async function fetchIdentityProviderMetadata(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" } });
  } catch {
    throw new ApiError(
      "Your browser could not read the metadata at this address (the identity provider may not allow it). " +
        "Download the file and upload it instead.",
      400,
      "SAML_METADATA_URL_UNREADABLE",
    );
  }
  if (!response.ok)
    throw new ApiError(
      `The metadata address answered ${response.status}. Check it, or download the file and upload it instead.`,
      400,
      "SAML_METADATA_URL_UNREADABLE",
    );
  return response.text();
}
