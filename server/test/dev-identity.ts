import type { TestClient, TestResponse } from "./request";

/**
 * Drives the authorization-code flow through the development identity provider as a browser would, with the
 * client's cookie jar: the app's endpoints through the client, the provider's pages over real HTTP (the app
 * must listen: `createTestApp({ listen: true, env: { DEV_IDENTITY_PROVIDER: "true" } })`).
 */

export type DevIdentityInput = { name: string; email: string; emailVerified: boolean };

/** Where a redirect leads, relative to the app when it stays on the app's origin. */
export function locationOf(response: Response): string {
  const location = response.headers.get("location");
  if (response.status < 300 || response.status > 399 || !location)
    throw new Error(`expected a redirect, got ${response.status}`);
  return location;
}

const resolve = (location: string, base: string) => new URL(location, base).toString();

/** POST /api/auth/sign-in/social (or /link-social) for the dev provider: answers the provider's authorization URL. */
export async function startDevSignIn(
  client: TestClient,
  body: Record<string, unknown> = {},
  path = "/api/auth/sign-in/social",
): Promise<string> {
  const response = await client.post(path, { provider: "dev", callbackURL: "/", ...body });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.data)}`);
  return (response.data as { url: string }).url;
}

/**
 * Opens the authorization URL, signs in at the provider's login page as `identity` (made up on the page), and
 * answers the provider's redirect back to the app: the callback URL with its code and state, not yet visited.
 * `cancel` presses the page's cancel button instead. `callbackPath` is where the app's callbacks start (an
 * organization's SSO provider comes back to `/api/auth/sso/callback/`).
 */
export async function authorizeAtDevProvider(
  client: TestClient,
  authorizationUrl: string,
  identity: DevIdentityInput | "cancel",
  callbackPath = "/api/auth/callback/",
): Promise<string> {
  const toLogin = await client.get(authorizationUrl, { overHttp: true });
  const loginPage = resolve(locationOf(toLogin), authorizationUrl);
  const page = await client.get(loginPage, { overHttp: true });
  if (page.status !== 200) throw new Error(`the login page answered ${page.status}`);
  const form =
    identity === "cancel"
      ? { path: "cancel", fields: {} }
      : {
          path: "new-identity",
          fields: {
            name: identity.name,
            email: identity.email,
            ...(identity.emailVerified ? { emailVerified: "on" } : {}),
          },
        };
  const submitted = await client.request(`${loginPage}/${form.path}`, {
    method: "POST",
    body: new URLSearchParams(form.fields).toString(),
    contentType: "application/x-www-form-urlencoded",
    overHttp: true,
  });
  // The provider resumes the authorization, then sends the browser back to the app.
  let location = resolve(locationOf(submitted), loginPage);
  while (!new URL(location).pathname.startsWith(callbackPath)) {
    location = resolve(locationOf(await client.get(location, { overHttp: true })), location);
  }
  return location;
}

/** Visits the app's callback: answers its redirect (to the callbackURL, or to the error page with `?error=`). */
export function visitCallback(client: TestClient, callbackUrl: string): Promise<TestResponse> {
  const url = new URL(callbackUrl);
  return client.get(`${url.pathname}${url.search}`);
}

/** The whole flow, from the app's button to the app's answer at the callback. */
export async function signInWithDevProvider(
  client: TestClient,
  identity: DevIdentityInput,
  body: Record<string, unknown> = {},
  path?: string,
): Promise<TestResponse> {
  return visitCallback(
    client,
    await authorizeAtDevProvider(client, await startDevSignIn(client, body, path), identity),
  );
}
