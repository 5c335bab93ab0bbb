import { Hono, type Context } from "hono";
import type { MadeUpForm } from "../dev-identity";
import { samlErrorPage, samlLoginPage, samlPostPage, POST_SCRIPT } from "./dev-saml.pages";
import {
  authnRequestMessageSchema,
  bindingSchema,
  madeUpIdentitySchema,
  pickIdentitySchema,
  type PendingRequest,
  type SamlBinding,
} from "./dev-saml.schemas";
import type { AcceptedRequest, DevSamlIdentityProvider, RefusedRequest } from "./dev-saml.service";

const EMPTY_FORM: MadeUpForm = { values: { emailVerified: true }, errors: {} };

/** The script's address changes with its text, so it may be kept for a year. */
const SCRIPT_VERSION = Buffer.from(POST_SCRIPT).toString("base64url").slice(0, 12);

/**
 * The development SAML IdP under /dev/saml: its metadata, its SSO service (HTTP-Redirect and HTTP-POST), the login
 * step's forms and the page that posts the signed response to the service provider. Mounted after the app's body
 * limit, hostile-input check and origin check, which its forms need like any other.
 */
export function devSamlRoutes(deps: { devSaml: DevSamlIdentityProvider }) {
  const { devSaml } = deps;
  const path = new URL(devSaml.ssoUrl).pathname;
  const actions = { identity: `${path}/identity`, newIdentity: `${path}/new-identity` };
  const scriptUrl = `${new URL(devSaml.entityId).pathname}/post-${SCRIPT_VERSION}.js`;

  const refusal = (c: Context, refused: RefusedRequest) =>
    c.html(samlErrorPage({ ...refused, backTo: devSaml.signInUrl }), refused.status);
  const login = (c: Context, request: AcceptedRequest, form: MadeUpForm = EMPTY_FORM, status: 200 | 400 = 200) =>
    c.html(
      samlLoginPage({
        actions,
        serviceProvider: request.serviceProvider.entityId,
        pending: { binding: request.binding, SAMLRequest: request.SAMLRequest, RelayState: request.RelayState },
        identities: devSaml.identities,
        form,
        signInUrl: devSaml.signInUrl,
      }),
      status,
    );
  const isRefused = (read: AcceptedRequest | RefusedRequest): read is RefusedRequest => "status" in read;
  /** The AuthnRequest as the service provider sent it: the login page, or why not. */
  const start = async (c: Context, binding: SamlBinding, fields: Record<string, unknown>) => {
    const message = authnRequestMessageSchema.safeParse(fields);
    if (!message.success) {
      return refusal(c, {
        status: 400,
        title: "This is not a SAML request",
        detail: message.error.issues[0]?.message ?? "SAMLRequest is required",
      });
    }
    const read = await devSaml.readRequest({ binding, ...message.data });
    return isRefused(read) ? refusal(c, read) : login(c, read);
  };
  /** The AuthnRequest a login form carries back, checked again (the IdP keeps nothing between the steps). */
  const resume = async (c: Context, body: Record<string, unknown>) => {
    const binding = bindingSchema.safeParse(body.binding);
    const message = authnRequestMessageSchema.safeParse(body);
    if (!binding.success || !message.success) {
      return {
        refused: { status: 400, title: "This form is incomplete", detail: "Start again from Atrium." } as const,
      };
    }
    const pending: PendingRequest = { binding: binding.data, ...message.data };
    const read = await devSaml.readRequest(pending);
    return isRefused(read) ? { refused: read } : { request: read };
  };
  const answer = async (c: Context, request: AcceptedRequest, identity: Parameters<typeof devSaml.respond>[1]) =>
    c.html(samlPostPage({ ...(await devSaml.respond(request, identity)), scriptUrl }));

  return new Hono()
    .use("*", async (c, next) => {
      await next();
      if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
    })
    .get("/metadata", (c) =>
      c.body(devSaml.metadata, 200, { "Content-Type": "application/samlmetadata+xml; charset=utf-8" }),
    )
    .get(`/post-${SCRIPT_VERSION}.js`, (c) =>
      c.body(POST_SCRIPT, 200, {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "public, max-age=31536000, immutable",
      }),
    )
    .get("/sso", (c) => start(c, "redirect", c.req.query()))
    .post("/sso", async (c) => start(c, "post", await c.req.parseBody()))
    .post("/sso/identity", async (c) => {
      const body = await c.req.parseBody();
      const resumed = await resume(c, body);
      if (resumed.refused) return refusal(c, resumed.refused);
      const picked = pickIdentitySchema.safeParse(body);
      const identity = picked.success
        ? devSaml.identities.find((listed) => listed.email === picked.data.identity.toLowerCase())
        : undefined;
      if (!identity) return login(c, resumed.request, EMPTY_FORM, 400);
      return answer(c, resumed.request, identity);
    })
    .post("/sso/new-identity", async (c) => {
      const body = await c.req.parseBody();
      const resumed = await resume(c, body);
      if (resumed.refused) return refusal(c, resumed.refused);
      const parsed = madeUpIdentitySchema.safeParse(body);
      if (!parsed.success) {
        const errors: MadeUpForm["errors"] = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path[0];
          if ((key === "name" || key === "email") && !errors[key]) errors[key] = issue.message;
        }
        const text = (value: unknown) => (typeof value === "string" ? value : undefined);
        const values = { name: text(body.name), email: text(body.email), emailVerified: body.emailVerified === "on" };
        return login(c, resumed.request, { values, errors }, 400);
      }
      const { name, email, emailVerified } = parsed.data;
      return answer(c, resumed.request, { name, email, emailVerified: emailVerified === "on" });
    });
}
