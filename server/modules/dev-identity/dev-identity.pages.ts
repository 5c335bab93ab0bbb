import type { DevIdentity } from "./dev-identity.schemas";

/**
 * The development identity provider's own pages, rendered on the server: they belong to the "provider", not
 * to the app, so they look like another site and never load the app's scripts. Every value is escaped.
 */

export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char] as string,
  );

const STYLE = `
  :root { color-scheme: light dark; --bg: #f6f5f2; --card: #fff; --text: #1c1b19; --muted: #5f5b53; --line: #dcd8cf; --accent: #0f5c4d; --accent-text: #fff; --warn-bg: #fff4d6; --warn-line: #e8c65a; --warn-text: #5c4300; --error: #a1251b; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #161512; --card: #211f1b; --text: #f1eee7; --muted: #b3ad9f; --line: #3a3731; --accent: #5cc2a8; --accent-text: #0d1f1a; --warn-bg: #3a2f0b; --warn-line: #7a6320; --warn-text: #f5dc8c; --error: #ff8a80; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 ui-sans-serif, system-ui, sans-serif; background: var(--bg); color: var(--text); }
  main { max-width: 30rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
  .banner { border: 1px solid var(--warn-line); background: var(--warn-bg); color: var(--warn-text); border-radius: .5rem; padding: .75rem 1rem; font-size: .875rem; margin-bottom: 1.5rem; }
  .brand { font-size: .8125rem; letter-spacing: .06em; text-transform: uppercase; color: var(--muted); margin: 0 0 .25rem; }
  h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1.5rem; }
  h2 { font-size: 1rem; margin: 0 0 .75rem; }
  section > p { margin: 0; }
  section > p + p { margin-top: .75rem; }
  section { background: var(--card); border: 1px solid var(--line); border-radius: .75rem; padding: 1.25rem; margin-bottom: 1rem; }
  .identities { display: grid; gap: .5rem; }
  .identity { display: flex; flex-wrap: wrap; width: 100%; align-items: center; justify-content: space-between; gap: .375rem .75rem; text-align: left; padding: .75rem; border: 1px solid var(--line); border-radius: .5rem; background: transparent; color: inherit; font: inherit; cursor: pointer; }
  .identity:hover { border-color: var(--accent); }
  .identity span { display: block; }
  .identity > span:first-child { flex: 1 1 11rem; min-width: 0; }
  .email { color: var(--muted); font-size: .875rem; overflow-wrap: anywhere; }
  .tag { flex: none; font-size: .75rem; padding: .125rem .5rem; border-radius: 999px; border: 1px solid var(--line); color: var(--muted); white-space: nowrap; }
  .tag.verified { border-color: var(--accent); color: var(--accent); }
  label { display: block; font-weight: 600; font-size: .875rem; margin-bottom: .25rem; }
  input[type=text], input[type=email] { width: 100%; padding: .5rem .625rem; border: 1px solid var(--line); border-radius: .375rem; background: var(--bg); color: var(--text); font: inherit; }
  input[aria-invalid=true] { border-color: var(--error); }
  .field { margin-bottom: .875rem; }
  .check { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; }
  .check input { margin-top: .3rem; }
  .hint { display: block; font-size: .8125rem; font-weight: 400; color: var(--muted); margin: .125rem 0 0; }
  .error { color: var(--error); font-size: .8125rem; margin: .25rem 0 0; }
  .primary { width: 100%; padding: .625rem 1rem; border: 0; border-radius: .375rem; background: var(--accent); color: var(--accent-text); font: inherit; font-weight: 600; cursor: pointer; }
  .link { background: none; border: 0; padding: 0; color: var(--muted); font: inherit; text-decoration: underline; cursor: pointer; }
  a { color: var(--accent); }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  .cancel { text-align: center; margin-top: 1.25rem; }
`;

const BANNER = `<p class="banner" role="note"><strong>For development only.</strong> This identity provider signs you in as whoever you choose, with no password. Atrium ships it for development and tests; real deployments leave it off.</p>`;

/**
 * A whole page of a development provider: its banner, its name (`brand`), `body`. The development SAML IdP's pages
 * use it too, so both providers look alike.
 */
export function layout(title: string, body: string, brand = "Dev identity provider"): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(brand)}</title>
<style>${STYLE}</style>
</head>
<body><main>${BANNER}<p class="brand">${escapeHtml(brand)}</p>${body}</main></body>
</html>`;
}

export type MadeUpForm = {
  values: { name?: string; email?: string; emailVerified: boolean };
  errors: Partial<Record<"name" | "email", string>>;
};

/** A labelled text field of the made-up identity form, with its error. */
export function field(
  name: "name" | "email",
  label: string,
  type: string,
  form: MadeUpForm,
  autocomplete: string,
): string {
  const error = form.errors[name];
  const value = form.values[name] ?? "";
  return `<div class="field"><label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" value="${escapeHtml(value)}" required${
    error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ""
  }>${error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ""}</div>`;
}

/** The login step: the listed identities, a form to make one up, and a way back to the app without signing in. */
export function loginPage(input: {
  interactionUrl: string;
  clientName: string;
  identities: DevIdentity[];
  form: MadeUpForm;
}): string {
  const action = (path: string) => escapeHtml(`${input.interactionUrl}/${path}`);
  const identities = input.identities
    .map(
      (identity) =>
        `<button class="identity" type="submit" name="identity" value="${escapeHtml(identity.sub)}"><span><span>${escapeHtml(identity.name)}</span><span class="email">${escapeHtml(
          identity.email,
        )}</span></span><span class="tag${identity.emailVerified ? " verified" : ""}">${identity.emailVerified ? "e-mail verified" : "e-mail not verified"}</span></button>`,
    )
    .join("");
  const hasErrors = Object.keys(input.form.errors).length > 0;
  return layout(
    "Sign in",
    `<h1>Sign in to ${escapeHtml(input.clientName)}</h1>
<section aria-labelledby="listed"><h2 id="listed">Continue as a test identity</h2>
<form method="post" action="${action("identity")}" class="identities">${identities}</form></section>
<section aria-labelledby="new"><h2 id="new">Or make one up</h2>
${hasErrors ? `<p class="error" role="alert">Check the fields below.</p>` : ""}
<form method="post" action="${action("new-identity")}" novalidate>
${field("name", "Name", "text", input.form, "name")}
${field("email", "E-mail", "email", input.form, "email")}
<div class="field"><label class="check"><input type="checkbox" name="emailVerified"${input.form.values.emailVerified ? " checked" : ""}><span>The provider has verified this e-mail address<span class="hint">Unchecked, Atrium treats the address as unproven: it never links it to an existing account.</span></span></label></div>
<button class="primary" type="submit">Continue as this identity</button>
</form></section>
<form class="cancel" method="post" action="${action("cancel")}"><button class="link" type="submit">Cancel and go back to ${escapeHtml(input.clientName)}</button></form>`,
  );
}

/** A dead end at the provider (an expired or unknown sign-in, a bad request): says so and leads back to the app. */
export function errorPage(input: { title: string; detail?: string; backTo?: string }): string {
  return layout(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1><section><p>${escapeHtml(input.detail ?? "")}</p>${
      input.backTo ? `<p><a href="${escapeHtml(input.backTo)}">Go back to the sign-in page</a></p>` : ""
    }</section>`,
  );
}

/** The SSO client's values, for an owner registering the dev provider as their organization's SSO in development. */
export function ssoClientPage(input: {
  issuer: string;
  clientId: string;
  clientSecret: string;
  callbackPrefix: string;
}): string {
  const row = (label: string, value: string) =>
    `<p><strong>${escapeHtml(label)}</strong><br><code>${escapeHtml(value)}</code></p>`;
  return layout(
    "SSO client",
    `<h1>Use this provider as an organization's SSO</h1>
<section><p>In development, register an OIDC provider with these values (Organization settings › SSO, or
<code>POST /api/auth/sso/register</code>). Any provider id works: the client accepts every Atrium SSO callback.</p></section>
<section>${row("Issuer", input.issuer)}${row("Client id", input.clientId)}${row("Client secret", input.clientSecret)}${row(
      "Redirect URIs",
      `${input.callbackPrefix}<provider id>`,
    )}</section>`,
  );
}
