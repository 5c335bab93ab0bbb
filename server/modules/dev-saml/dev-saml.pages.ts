import { devProviderPage, escapeHtml, madeUpIdentityField, type MadeUpForm } from "../dev-identity";
import type { PendingRequest, SamlIdentity } from "./dev-saml.schemas";

/**
 * The development SAML IdP's own pages, rendered on the server in the development OIDC provider's look. They run
 * under the app's Content-Security-Policy (scripts from the app's origin only, forms posting to it only): the one
 * script, which posts the response on, is a file of its own (`POST_SCRIPT`), never inline.
 */

const BRAND = "Dev SAML identity provider";

/** The AuthnRequest a form carries back to the IdP, as hidden fields. */
function pendingFields(pending: PendingRequest): string {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return [
    hidden("binding", pending.binding),
    hidden("SAMLRequest", pending.SAMLRequest),
    pending.RelayState === undefined ? "" : hidden("RelayState", pending.RelayState),
  ].join("");
}

/** The login step: the listed identities, a form to make one up, and a way back to the app without signing in. */
export function samlLoginPage(input: {
  actions: { identity: string; newIdentity: string };
  serviceProvider: string;
  pending: PendingRequest;
  identities: SamlIdentity[];
  form: MadeUpForm;
  signInUrl: string;
}): string {
  const identities = input.identities
    .map((identity) => {
      const tag = identity.emailVerified
        ? `<span class="tag verified">e-mail verified</span>`
        : `<span class="tag">e-mail not verified</span>`;
      return (
        `<button class="identity" type="submit" name="identity" value="${escapeHtml(identity.email)}">` +
        `<span><span>${escapeHtml(identity.name)}</span>` +
        `<span class="email">${escapeHtml(identity.email)}</span></span>` +
        `${tag}</button>`
      );
    })
    .join("");
  const hasErrors = Object.keys(input.form.errors).length > 0;
  const fields = pendingFields(input.pending);
  return devProviderPage(
    "Sign in",
    `<h1>Sign in to Atrium</h1>
<p class="email">SAML service provider: ${escapeHtml(input.serviceProvider)}</p>
<section aria-labelledby="listed"><h2 id="listed">Continue as a test identity</h2>
<form method="post" action="${escapeHtml(input.actions.identity)}" class="identities">
${fields}${identities}</form></section>
<section aria-labelledby="new"><h2 id="new">Or make one up</h2>
${hasErrors ? `<p class="error" role="alert">Check the fields below.</p>` : ""}
<form method="post" action="${escapeHtml(input.actions.newIdentity)}" novalidate>${fields}
${madeUpIdentityField("name", "Name", "text", input.form, "name")}
${madeUpIdentityField("email", "E-mail", "email", input.form, "email")}
<div class="field"><label class="check">
<input type="checkbox" name="emailVerified"${input.form.values.emailVerified ? " checked" : ""}>
<span>The IdP has verified this e-mail address<span class="hint">Sent as the emailVerified attribute;
Atrium trusts it only where the provider is set to.</span></span></label></div>
<button class="primary" type="submit">Continue as this identity</button>
</form></section>
<p class="cancel"><a href="${escapeHtml(input.signInUrl)}">Cancel and go back to Atrium</a></p>`,
    BRAND,
  );
}

/** The script the response page loads from the IdP's own path: it posts the page's one form at once. */
export const POST_SCRIPT = `document.getElementById("saml-response").submit();\n`;

/**
 * The HTTP-POST binding's page: the signed response in a form to the service provider's ACS URL, posted by
 * `POST_SCRIPT` as soon as it loads; without scripts the button does the same.
 */
export function samlPostPage(input: {
  action: string;
  SAMLResponse: string;
  RelayState?: string;
  scriptUrl: string;
}): string {
  const relayState =
    input.RelayState === undefined
      ? ""
      : `<input type="hidden" name="RelayState" value="${escapeHtml(input.RelayState)}">`;
  return devProviderPage(
    "Signing you in",
    `<h1>Signing you in…</h1>
<form id="saml-response" method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="SAMLResponse" value="${escapeHtml(input.SAMLResponse)}">
${relayState}
<section><p>Your browser sends the identity provider's answer back to Atrium.</p>
<p><button class="primary" type="submit">Continue to Atrium</button></p></section>
</form>
<script src="${escapeHtml(input.scriptUrl)}"></script>`,
    BRAND,
  );
}

/** A dead end at the IdP (an unknown service provider, an expired or malformed request): says so, leads back. */
export function samlErrorPage(input: { title: string; detail: string; backTo: string }): string {
  return devProviderPage(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1><section><p>${escapeHtml(input.detail)}</p><p><a href="${escapeHtml(
      input.backTo,
    )}">Go back to the sign-in page</a></p></section>`,
    BRAND,
  );
}
