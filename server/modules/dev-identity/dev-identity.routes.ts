import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ERROR_CODES } from "../../../common/error-codes";
import { errorResponse } from "../../http/errors";
import { refuseHostileInput } from "../../http/middleware/hostile-input";
import { errorPage, loginPage, ssoClientPage, type MadeUpForm } from "./dev-identity.pages";
import { madeUpIdentitySchema, pickIdentitySchema } from "./dev-identity.schemas";
import type { DevIdentityProvider } from "./dev-identity.service";
import type { Interaction } from "oidc-provider";

const FORM_LIMIT_BYTES = 16 * 1024;
const EMPTY_FORM: MadeUpForm = { values: { emailVerified: true }, errors: {} };

type DevIdentityEnv = { Bindings: Partial<HttpBindings> };

/**
 * The development identity provider under its issuer's path: the login step's pages and forms, then
 * oidc-provider's own endpoints. oidc-provider works on Node's request and response and reads its own request
 * bodies (with its own limit), so app.ts mounts this before the middleware that reads bodies; the forms here
 * get the same limits and checks themselves.
 */
export function devIdentityRoutes(deps: { devIdentity: DevIdentityProvider }) {
  const { devIdentity } = deps;
  const issuer = new URL(devIdentity.issuer);
  const mountPath = issuer.pathname.replace(/\/$/, "");

  const expired = (c: Context) =>
    c.html(
      errorPage({
        title: "This sign-in is no longer in progress",
        detail: "It expired (a sign-in lasts 10 minutes) or was finished in another tab. Start again from Atrium.",
        backTo: devIdentity.signInUrl,
      }),
      410,
    );
  const login = (c: Context, interaction: Interaction, form: MadeUpForm = EMPTY_FORM, status: 200 | 400 = 200) =>
    c.html(
      loginPage({
        interactionUrl: `${devIdentity.issuer}/interaction/${encodeURIComponent(interaction.uid)}`,
        clientName: "Atrium",
        identities: devIdentity.identities.list(),
        form,
      }),
      status,
    );
  /** Node's request and response, which oidc-provider works on (the first middleware made sure they are there). */
  const node = (c: { env: Partial<HttpBindings> }) => c.env as HttpBindings;

  return new Hono<DevIdentityEnv>()
    .use("*", async (c, next) => {
      if (!c.env.incoming || !c.env.outgoing) {
        return errorResponse(
          c,
          ERROR_CODES.SERVICE_UNAVAILABLE,
          "The dev identity provider needs the Node HTTP server",
        );
      }
      await next();
    })
    .use(
      "/interaction/*",
      async (c, next) => {
        await next();
        c.header("Cache-Control", "no-store");
      },
      bodyLimit({
        maxSize: FORM_LIMIT_BYTES,
        onError: (c) => errorResponse(c, ERROR_CODES.PAYLOAD_TOO_LARGE, "The form is larger than 16 KB"),
      }),
      refuseHostileInput(),
    )
    .get("/interaction/:uid", async (c) => {
      const { incoming, outgoing } = node(c);
      const interaction = await devIdentity.findInteraction(incoming, outgoing, c.req.param("uid"));
      return interaction ? login(c, interaction) : expired(c);
    })
    .post("/interaction/:uid/identity", async (c) => {
      const { incoming, outgoing } = node(c);
      const interaction = await devIdentity.findInteraction(incoming, outgoing, c.req.param("uid"));
      if (!interaction) return expired(c);
      const picked = pickIdentitySchema.safeParse(await c.req.parseBody());
      const identity = picked.success ? devIdentity.identities.find(picked.data.identity) : undefined;
      if (!identity) return login(c, interaction, EMPTY_FORM, 400);
      return c.redirect(await devIdentity.signIn(incoming, outgoing, interaction, identity), 303);
    })
    .post("/interaction/:uid/new-identity", async (c) => {
      const { incoming, outgoing } = node(c);
      const interaction = await devIdentity.findInteraction(incoming, outgoing, c.req.param("uid"));
      if (!interaction) return expired(c);
      const body = await c.req.parseBody();
      const parsed = madeUpIdentitySchema.safeParse(body);
      if (!parsed.success) {
        const errors: MadeUpForm["errors"] = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path[0];
          if ((key === "name" || key === "email") && !errors[key]) errors[key] = issue.message;
        }
        const text = (value: unknown) => (typeof value === "string" ? value : undefined);
        return login(
          c,
          interaction,
          {
            values: { name: text(body.name), email: text(body.email), emailVerified: body.emailVerified === "on" },
            errors,
          },
          400,
        );
      }
      return c.redirect(
        await devIdentity.signIn(incoming, outgoing, interaction, devIdentity.saveIdentity(parsed.data)),
        303,
      );
    })
    .post("/interaction/:uid/cancel", async (c) => {
      const { incoming, outgoing } = node(c);
      if (!(await devIdentity.findInteraction(incoming, outgoing, c.req.param("uid")))) return expired(c);
      return c.redirect(await devIdentity.cancel(incoming, outgoing), 303);
    })
    .get("/sso-client", (c) => {
      c.header("Cache-Control", "no-store");
      return c.html(ssoClientPage({ issuer: devIdentity.issuer, ...devIdentity.ssoClient }));
    })
    .all("*", async (c) => {
      const { incoming, outgoing } = node(c);
      // oidc-provider routes relative to where it is mounted and finds the mount path in `originalUrl`, as Express sets them.
      const originalUrl = incoming.url ?? "";
      const rest = originalUrl.slice(mountPath.length);
      Object.assign(incoming, { originalUrl, url: rest.startsWith("/") ? rest : `/${rest}` });
      incoming.headers["x-forwarded-host"] = issuer.host;
      incoming.headers["x-forwarded-proto"] = issuer.protocol.slice(0, -1);
      await devIdentity.handle(incoming, outgoing);
      return RESPONSE_ALREADY_SENT;
    });
}
