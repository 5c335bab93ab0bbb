import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Context, MiddlewareHandler } from "hono";
import { ERROR_CODES } from "../common/error-codes";
import { createAppErrorHandler } from "./app-errors";
import type { Auth } from "./auth/auth";
import { createAuthHandler } from "./auth/auth-handler";
import type { RateLimitStore } from "./http/rate-limit-store";
import type { SyncedRateLimiter } from "./http/synced-rate-limit";
import { rateLimitRuleOf, withRetryAfter } from "./auth/rate-limit";
import { createSessionReads } from "./auth/session-reads";
import { setFirstPassword } from "./auth/first-password";
import { firstPasswordRoutes } from "./auth/first-password.routes";
import { assertFreshSession } from "./auth/fresh-authentication";
import { reauthenticate } from "./auth/reauthenticate";
import { reauthenticateRoutes } from "./auth/reauthenticate.routes";
import { DEV_DNS_PATH, DEV_WEBHOOKS_PATH, type Config } from "./config";
import type { DatabaseHandle } from "./db/database";
import type { ReadCache } from "./db/read-cache";
import { createResponseCache } from "./http/response-cache";
import type { AppEnv, AssertFreshSession, GetSession } from "./http/app-env";
import { metaRoutes } from "./http/meta.routes";
import { createDatabaseProbe, databaseUnavailable, errorResponse, withRequestIdInBody } from "./http/errors";
import { createMetrics } from "./http/metrics";
import { clientIp, createClientIpResolver, withClientIpHeader } from "./http/middleware/client-ip";
import { limitWrites, writeRateLimitRules } from "./http/middleware/rate-limit";
import { requireTrustedOrigin } from "./http/middleware/trusted-origin";
import { operationsRoutes, type Readiness } from "./http/operations.routes";
import { observeRequests, recordRoute, requestIdHeader } from "./http/request-observer";
import { refuseHostileInput } from "./http/middleware/hostile-input";
import { securityHeaders } from "./http/middleware/security-headers";
import type { Logger } from "./logger";
import { adminRoutes } from "./modules/admin";
import { adminAuditRoutes } from "./modules/audit";
import { adminBillingRoutes, billingBacklogMetrics, billingRoutes, type Billing } from "./modules/billing";
import { devIdentityRoutes, type DevIdentityProvider } from "./modules/dev-identity";
import { DEV_SAML_IDP_PATH, devSamlRoutes, type DevSamlIdentityProvider } from "./modules/dev-saml";
import { devMailRoutes, invitationNotice, mailBacklogMetrics, type MailQueue } from "./modules/mail";
import {
  invitationRoutes,
  organizationAuditRoutes,
  organizationRoutes,
  organizationWrites,
  type OrganizationWriteEndpoint,
} from "./modules/organizations";
import { accountDeletionRoutes } from "./modules/organizations";
import { scimRoutes, scimSettingsRoutes } from "./modules/scim";
import { devDnsRoutes, domainJoinRoutes, ssoRoutes, type DevDnsServer } from "./modules/sso";
import { devWebhookRoutes, publishOrganizationChanges, webhookRoutes } from "./modules/webhooks";
import { apiKeyRoutes, createApiKeyAuthentication } from "./modules/api-keys";

export const BODY_LIMIT_BYTES = 1024 * 1024;

export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
  billing: Billing;
  billingWorker: { nudge(): void };
  /** Delivers outbound webhooks: nudged when a test event or a redelivery is queued. */
  webhookWorker: { nudge(): void };
  /** The mail outbox: the app's own notices (an admin's reset of second factors) are queued here, as better-auth's. */
  mail: MailQueue;
  /** Whole answers of the reads every page makes, kept between requests and dropped by the database's change feed. */
  readCache: ReadCache;
  logger: Logger;
  /** The rate-limit counters better-auth uses too (the database table or Redis, failing open). */
  rateLimitStore: RateLimitStore;
  /** Each organization API key's limit (API_KEY_REQUESTS_PER_MINUTE), counted in process, shared in the background. */
  apiKeyRateLimiter: Pick<SyncedRateLimiter, "tryTake" | "take">;
  /** The billing sandbox (created in services.ts), mounted under /sandbox/polar when present: here only its fetch handler. */
  sandbox?: { app: { fetch: (request: Request) => Response | Promise<Response> } };
  /** The development identity provider, mounted under its issuer's path when present. */
  devIdentity?: DevIdentityProvider;
  /** The development SAML identity provider, mounted under /dev/saml when present. */
  devSaml?: DevSamlIdentityProvider;
  /** The development DNS server (DEV_DNS_SERVER), whose console is mounted at /dev/dns when present. */
  devDns?: DevDnsServer;
  /** Folder of the built web app; omitted in tests that only exercise the API. */
  webDist?: string;
  /** Whether the process is shutting down (server/main.ts): /readyz answers 503 from then on. */
  readiness?: Readiness;
};

/** Builds the whole HTTP surface: middleware, module routers, one onError, notFound. No listening here. */
export function createApp(deps: AppDeps) {
  const { config, database, auth, logger } = deps;
  const app = new Hono<AppEnv>();

  const databaseProbe = createDatabaseProbe(database.ping, Date.now, database.isClosed);
  const sessionReads = createSessionReads(auth, deps.readCache);
  const apiKeys = createApiKeyAuthentication({
    db: database.db,
    readCache: deps.readCache,
    limiter: deps.apiKeyRateLimiter,
    logger,
  });
  const responseCache = createResponseCache({
    cache: deps.readCache,
    cookieNames: sessionReads.cookieNames,
    sessionOf: sessionReads.sessionOf,
    apiKeys: apiKeys.replays,
  });
  const metrics = createMetrics({ poolStats: database.poolStats });
  app.onError(createAppErrorHandler(logger, { isDatabaseDown: databaseProbe.explainsFailure }));
  app.use("*", requestIdHeader);
  // Outermost but for the request id, so that what it keeps is the final answer, headers and compression included.
  app.use("*", responseCache.keep);
  // Inside `keep`, so a kept answer remembers its route; better-auth's endpoints are labelled by their own paths.
  const authPaths = new Set(
    Object.values(auth.api).map((endpoint) => `${AUTH_ROUTE.slice(0, -2)}${(endpoint as { path?: string }).path}`),
  );
  app.use("*", recordRoute(authPaths, AUTH_ROUTE));
  app.use("*", securityHeaders({ isHttps: config.isHttps }));
  app.use("*", clientIp(config.trustedProxies, logger));
  // The app's own writes: from the app's pages only, and rate limited. Before the read cache's catch-up and the body
  // limit, so a refused write costs no wait and no body is read. What has checks of its own is left to them.
  const isExempt = hasOwnChecks([
    ...(deps.devIdentity ? [new URL(deps.devIdentity.issuer).pathname] : []),
    ...(config.webhooks.devReceiver ? [DEV_WEBHOOKS_PATH] : []),
  ]);
  // One session read per request: the write limits read it, and the route's guard reads it again. A read (GET,
  // HEAD) takes it from the read cache when it can (ADR 0032); a write always asks better-auth, so the database. A
  // read's membership check on the organization routes is kept the same way (ADR 0036).
  const reads = new WeakSet<Headers>();
  app.use("*", async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") {
      reads.add(c.req.raw.headers);
      c.set("readCache", deps.readCache);
    }
    await next();
  });
  const sessionsOfRequests = new WeakMap<Headers, ReturnType<GetSession>>();
  const getSession: GetSession = (headers) => {
    let session = sessionsOfRequests.get(headers);
    if (session === undefined) {
      session = reads.has(headers) ? sessionReads.sessionOfRead(headers) : auth.api.getSession({ headers });
      sessionsOfRequests.set(headers, session);
    }
    return session;
  };
  app.use("*", requireTrustedOrigin({ trustedOrigins: [config.baseUrl, ...config.trustedOrigins], isExempt }));
  app.use(
    "*",
    limitWrites({
      store: deps.rateLimitStore,
      rules: writeRateLimitRules(config),
      getSession,
      isExempt,
      onRejected: (rule) => metrics.countRateLimitRejection(rule),
    }),
  );
  // A request that may have written waits until this instance's read cache has seen its writes, so the same
  // client's next read here is fresh (other instances see them within the cache's bound, FRESH_FOR_MS).
  app.use("*", async (c, next) => {
    await next();
    if (!SAFE_METHODS.has(c.req.method)) await deps.readCache.catchUp();
  });
  // Before the middleware that reads request bodies: oidc-provider reads (and limits) its own.
  if (deps.devIdentity) {
    app.route(new URL(deps.devIdentity.issuer).pathname, devIdentityRoutes({ devIdentity: deps.devIdentity }));
  }
  const limitBody = bodyLimit({
    maxSize: BODY_LIMIT_BYTES,
    onError: (c) => errorResponse(c, ERROR_CODES.PAYLOAD_TOO_LARGE, "The request body is larger than 1 MB"),
  });
  // GET and HEAD bodies are never read: checking them would build a full Request for every page's reads.
  app.use("*", (c, next) => (SAFE_METHODS.has(c.req.method) ? next() : limitBody(c, next)));
  app.use("*", refuseHostileInput());
  // JSON answers of 1 KB or more are gzipped for clients that accept it. Only JSON: the audit CSV export
  // streams, and the web app's files are compressed at build time (mountWebApp).
  app.use("/api/*", compressJson);

  const backlogs = [mailBacklogMetrics(database.db), billingBacklogMetrics(database.db)];
  const operations = { metrics, logger, backlogs, metricsToken: config.metricsToken, readiness: deps.readiness };
  app.route("/", operationsRoutes({ ...operations, isDatabaseDown: databaseProbe.isDown }));

  app.route("/api/meta", metaRoutes(config));

  // What a route decides (a role, a membership) is decided on the database's current rows: only the reads
  // above are replayed, never an authorization.
  // An organization API key (`Authorization: Bearer`) becomes the caller of the organization routes; which of them
  // it may call is the organization scope's decision (server/modules/organizations/organizations.api-key-access.ts).
  // A key is known from the read cache, so a read it was admitted to may be replayed to that key alone (ADR 0027).
  app.use("/api/organizations/*", apiKeys.authenticate);
  // The organization's writes: a person's go through better-auth's own endpoint (its session), an API key's through
  // the operation itself, with the organization plugin's limits, webhook events and invitation mail.
  const writes = organizationWrites({
    db: database.db,
    limits: {
      assertWithinLimit: deps.billing.assertWithinLimit,
      releaseOrganization: deps.billing.releaseOrganization,
    },
    publishChanges: publishOrganizationChanges,
    sendInvitationEmail: invitationNotice(deps.mail, config.baseUrl),
    callEndpoint: (endpoint, headers, body) => organizationEndpoint(auth, endpoint)({ headers, body }),
  });
  app.route("/api/organizations", organizationRoutes({ getSession, db: database.db, writes }));
  app.route("/api/organizations", organizationAuditRoutes({ getSession, db: database.db }));
  app.route("/api/organizations", ssoRoutes({ getSession, db: database.db, baseUrl: config.baseUrl }));
  app.route("/api/organizations", scimSettingsRoutes({ getSession, db: database.db, baseUrl: config.baseUrl }));
  const limits = { assertWithinLimit: deps.billing.assertWithinLimit };
  app.route("/api/joinable-organizations", domainJoinRoutes({ getSession, db: database.db, limits }));
  app.route(
    "/api/organizations",
    webhookRoutes({
      getSession,
      db: database.db,
      policy: { allowPrivate: config.webhooks.allowPrivateTargets },
      nudge: () => deps.webhookWorker.nudge(),
    }),
  );
  app.route("/api/organizations", apiKeyRoutes({ getSession, db: database.db }));
  app.route("/api/invitations", invitationRoutes({ db: database.db }));
  app.route("/api/account", accountDeletionRoutes({ getSession, db: database.db }));
  app.route(
    "/api/account",
    firstPasswordRoutes({ getSession, setFirstPassword: (input) => setFirstPassword(auth, input) }),
  );
  app.route(
    "/api/account",
    reauthenticateRoutes({ getSession, reauthenticate: (request) => reauthenticate(auth, database.db, request) }),
  );
  const assertFresh: AssertFreshSession = (session) =>
    assertFreshSession(database.db, { id: session.session.id, userId: session.user.id });
  app.route(
    "/api",
    billingRoutes({
      getSession,
      assertFreshSession: assertFresh,
      db: database.db,
      billing: deps.billing,
      nudge: () => deps.billingWorker.nudge(),
      webhookSecret: config.billing?.webhookSecret ?? null,
    }),
  );
  const platformAccess = { getSession, adminUserIds: config.adminUserIds };
  app.route(
    "/api/admin",
    adminRoutes({
      ...platformAccess,
      db: database.db,
      dialect: database.dialect,
      plansOf: (organizationIds) => deps.billing.plansOf(organizationIds),
      assertWithinLimit: (organizationId, resource, adding) =>
        deps.billing.assertWithinLimit(organizationId, resource, adding),
      mail: deps.mail,
      baseUrl: config.baseUrl,
    }),
  );
  app.route("/api/admin/audit-log", adminAuditRoutes({ ...platformAccess, db: database.db }));
  app.route("/api/admin/billing", adminBillingRoutes({ ...platformAccess, db: database.db, billing: deps.billing }));

  // SCIM is the app's own, under better-auth's base path where @better-auth/scim serves it (docs/decisions/0023).
  app.route(
    SCIM_ROUTE,
    scimRoutes({
      getSession,
      db: database.db,
      baseUrl: config.baseUrl,
      assertWithinLimit: (organizationId, resource, adding) =>
        deps.billing.assertWithinLimit(organizationId, resource, adding),
      rateLimitStore: deps.rateLimitStore,
      requestsPerMinute: config.scimRequestsPerMinute,
    }),
  );
  const handleAuth = createAuthHandler(auth);
  app.on(["GET", "POST"], AUTH_ROUTE, (c) => sessionReads.answer(c, () => authHandler(c)));
  async function authHandler(c: Context<AppEnv>): Promise<Response> {
    const response = await withRequestIdInBody(
      await withRetryAfter(await handleAuth(withClientIpHeader(withJsonBody(c.req.raw), c.get("clientIp")))),
    );
    if (response.status === 429)
      metrics.countRateLimitRejection(rateLimitRuleOf(c.req.path.slice(AUTH_ROUTE.length - 2)));
    // better-auth answers some database failures itself: its own 500 ("Failed to get session"), or a 401 when
    // its session lookup fails. The same 503 as everywhere else when the database is the cause.
    const isDatabasesFailure =
      response.status >= 500
        ? await databaseProbe.explainsFailure()
        : response.status === 401 && (await databaseProbe.explainsRefusal());
    if (isDatabasesFailure) return databaseUnavailable(c, logger);
    // better-auth answers its own server errors itself (onAPIError.throw only lets other errors through): log them too.
    if (response.status >= 500) {
      const { code } = (await response
        .clone()
        .json()
        .catch(() => ({}))) as { code?: unknown };
      logger.error("auth answered a server error", {
        method: c.req.method,
        path: c.req.path,
        status: response.status,
        code,
      });
    }
    return response;
  }

  if (config.mail.devMailbox) app.route("/api/dev/mail", devMailRoutes({ db: database.db }));
  // Outside production only (docs/decisions/0006): it records whatever is posted to it.
  if (config.webhooks.devReceiver) {
    const receiverUrl = `${config.baseUrl}${DEV_WEBHOOKS_PATH}`;
    app.route(
      DEV_WEBHOOKS_PATH,
      devWebhookRoutes({
        db: database.db,
        basePath: DEV_WEBHOOKS_PATH,
        receiverUrl,
        retentionDays: config.webhooks.retentionDays,
      }),
    );
  }
  if (deps.devDns) app.route(DEV_DNS_PATH, devDnsRoutes({ devDns: deps.devDns, basePath: DEV_DNS_PATH }));

  // After the body limit, the hostile-input check and the origin check: its forms are the app's own pages' forms.
  if (deps.devSaml) app.route(DEV_SAML_IDP_PATH, devSamlRoutes({ devSaml: deps.devSaml }));

  // Mounted (not `route`d) so the sandbox keeps its own trailing-slash tolerance and provider-format errors.
  if (deps.sandbox) app.mount("/sandbox/polar", deps.sandbox.app.fetch);

  app.all("/api/*", (c) => errorResponse(c, ERROR_CODES.NOT_FOUND, `No endpoint ${c.req.method} ${c.req.path}`));

  if (deps.webDist) mountWebApp(app, deps.webDist, { isProduction: config.isProduction });
  app.notFound((c) => errorResponse(c, ERROR_CODES.NOT_FOUND, "Not found"));

  // A kept answer is replayed before any middleware runs (app.request() comes through here too); every answer,
  // replayed or not, gets the request's id and is counted in the metrics.
  const handle = app.fetch;
  const trustedPeers = createClientIpResolver(config.trustedProxies);
  app.fetch = observeRequests(
    (request, env, executionContext) => responseCache.answer(request) ?? handle(request, env, executionContext),
    {
      metrics,
      isTrustedPeer: trustedPeers.isTrustedPeer,
    },
  );
  return app;
}

/**
 * Whether writes to `path` have checks of their own, and are left out of the app's origin check and write limits:
 * better-auth's endpoints (its own origin check and limits), the provider's webhooks (a verified signature; sent
 * server to server, with no Origin), and the emulated outside services (the billing sandbox with its bearer tokens,
 * the development identity provider, the development webhook receiver), which a real deployment reaches on other
 * origins.
 */
function hasOwnChecks(devPaths: string[]): (path: string) => boolean {
  const trees = ["/api/auth", "/sandbox/polar", ...devPaths];
  const isInTree = (path: string) => trees.some((tree) => path === tree || path.startsWith(`${tree}/`));
  // SCIM's token creation is the app's own route under /api/auth, asked by a signed-in page: it gets the app's checks
  // (the SCIM endpoints themselves carry a bearer token, from a directory with no Origin, limited per token).
  return (path) => path !== SCIM_TOKEN_PATH && (path === "/api/billing/webhooks" || isInTree(path));
}

/** The SCIM service provider (server/modules/scim) and its token creation. */
const SCIM_ROUTE = "/api/auth/scim";
const SCIM_TOKEN_PATH = `${SCIM_ROUTE}/generate-token`;

/** One of the organization plugin's endpoints, as the app's organization writes call it (a person's request). */
function organizationEndpoint(auth: Auth, endpoint: OrganizationWriteEndpoint) {
  // Each endpoint types its own body; the route built it from the same schemas better-auth's before-hook checks.
  return auth.api[endpoint] as unknown as (input: {
    headers: Headers;
    body: Record<string, unknown>;
  }) => Promise<unknown>;
}

/** better-auth's catch-all route. */
const AUTH_ROUTE = "/api/auth/*";

const JSON_CONTENT_TYPE = /^application\/json/;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** JSON answers smaller than this are sent as they are: gzip makes a `null` or a short error bigger, not smaller. */
const GZIP_THRESHOLD_BYTES = 1024;
/**
 * zlib's fastest level, as nginx compresses by default: a members page of 20 (6.2 KB) took 89 µs at the default
 * level 6 and takes 35 µs, 3 % larger (1,784 bytes instead of 1,727); a `list-members` page of 100 (31 KB), 126 and
 * 67 µs, 4 % larger. Only a first read pays it: a kept answer is replayed compressed.
 */
const GZIP_LEVEL = 1;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * Gzips JSON answers of 1 KB or more for clients that accept gzip, with `Vary: Accept-Encoding`; a client that does
 * not is answered untouched, without reading the body. JSON answers are complete strings already, so one is
 * compressed in one synchronous call rather than through a stream.
 */
const compressJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const { res } = c;
  const isCompressible =
    res.body &&
    c.req.method !== "HEAD" &&
    res.status !== 206 &&
    !res.headers.has("Content-Encoding") &&
    !res.headers.has("Transfer-Encoding") &&
    JSON_CONTENT_TYPE.test(res.headers.get("Content-Type") ?? "") &&
    !NO_TRANSFORM.test(res.headers.get("Cache-Control") ?? "");
  if (!isCompressible || !acceptsEncoding(c, "gzip")) return;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  let body = bytes;
  if (bytes.byteLength >= GZIP_THRESHOLD_BYTES) {
    body = gzipSync(bytes, { level: GZIP_LEVEL });
    headers.set("Content-Encoding", "gzip");
    if (!/accept-encoding/i.test(headers.get("Vary") ?? "")) headers.append("Vary", "Accept-Encoding");
  }
  headers.set("Content-Length", String(body.byteLength));
  c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
};

/**
 * better-auth's plugins read fields of the body without checking that there is one (a POST to update-user
 * with no body crashed the username plugin): a POST without a body is handed on as an empty JSON object.
 */
function withJsonBody(request: Request): Request {
  if (request.method !== "POST" || request.body) return request;
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  return new Request(request, { headers, body: "{}" });
}

/** The precompressed variants the build writes next to each text file (vite.config.ts), best first. */
const PRECOMPRESSED = [
  { encoding: "br", extension: ".br" },
  { encoding: "gzip", extension: ".gz" },
] as const;

/** Whether the request's Accept-Encoding allows `encoding`, by name or by `*` (an encoding with q=0 is refused). */
function acceptsEncoding(c: Context<AppEnv>, encoding: string): boolean {
  const accepted = new Map(
    (c.req.header("Accept-Encoding") ?? "").split(",").map((part) => {
      const [name = "", ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return [name, q === undefined ? 1 : Number(q)] as const;
    }),
  );
  return (accepted.get(encoding) ?? accepted.get("*") ?? 0) > 0;
}

/** The best precompressed variant the request's Accept-Encoding allows. */
function acceptedEncoding(c: Context<AppEnv>): (typeof PRECOMPRESSED)[number] | undefined {
  return PRECOMPRESSED.find(({ encoding }) => acceptsEncoding(c, encoding));
}

/**
 * Serves the built single-page app; every other GET falls back to index.html for client routing. Each text
 * file is answered with its precompressed .br or .gz variant when the client accepts one (with Content-Encoding
 * and Vary: Accept-Encoding), the index.html fallback too. Source maps are built "hidden" (no bundle points at
 * them) and refused in production, so the app's sources are not published.
 */
export function mountWebApp(app: Hono<AppEnv>, webDist: string, options: { isProduction: boolean }) {
  const indexFile = path.join(webDist, "index.html");
  if (!existsSync(indexFile)) throw new Error(`The web app is not built: ${indexFile} is missing. Run npm run build.`);
  const index = new Map<string, Buffer>([["identity", readFileSync(indexFile)]]);
  for (const { encoding, extension } of PRECOMPRESSED) {
    if (existsSync(indexFile + extension)) index.set(encoding, readFileSync(indexFile + extension));
  }
  const root = path.relative(process.cwd(), webDist) || ".";
  if (options.isProduction)
    app.get("*", async (c, next) =>
      c.req.path.endsWith(".map") ? errorResponse(c, ERROR_CODES.NOT_FOUND, "Not found") : next(),
    );
  // A client asking for a .br or .gz file by name gets a 404 like any missing file, not the raw bytes.
  app.get("*", async (c, next) =>
    /\.(br|gz)$/.test(c.req.path) ? errorResponse(c, ERROR_CODES.NOT_FOUND, "Not found") : next(),
  );
  app.use(
    "/assets/*",
    serveStatic({
      root,
      precompressed: true,
      onFound: (_path, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  app.use("*", serveStatic({ root, precompressed: true }));
  app.get("*", (c) => {
    c.header("Cache-Control", "no-cache");
    c.header("Vary", "Accept-Encoding");
    const variant = acceptedEncoding(c);
    const body = (variant && index.get(variant.encoding)) ?? index.get("identity")!;
    if (variant && index.has(variant.encoding)) c.header("Content-Encoding", variant.encoding);
    return c.body(new Uint8Array(body), 200, { "Content-Type": "text/html; charset=UTF-8" });
  });
}
