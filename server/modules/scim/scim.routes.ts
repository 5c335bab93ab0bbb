import { Hono, type Context } from "hono";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { DomainError } from "../../../common/domain-error";
import { ERROR_CODES, ERROR_STATUS, SCIM_ERROR_CODES, type CatalogueCode } from "../../../common/error-codes";
import { generateScimTokenSchema, SCIM_BASE_PATH } from "../../../common/scim.schemas";
import type { Database } from "../../db/schema";
import type { AppEnv, GetSession, SessionEnv } from "../../http/app-env";
import { validate } from "../../http/validate";
import { requestAuditContext } from "../audit";
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup } from "./scim.groups";
import { resourceTypes, schemas, serviceProviderConfig, listResponse } from "./scim.resources";
import {
  groupResourceSchema,
  listQuerySchema,
  patchRequestSchema,
  SCHEMAS,
  SCIM_MEDIA_TYPE,
  userResourceSchema,
} from "./scim.schemas";
import { authenticate, generateToken, scimAuditContext, type ScimCaller } from "./scim.tokens";
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser, type ScimDeps } from "./scim.users";

type ScimEnv = AppEnv & { Variables: AppEnv["Variables"] & { caller: ScimCaller } };

/** The `scimType` (RFC 7644 section 3.12) of each refusal that has one. */
const SCIM_TYPES: Partial<Record<CatalogueCode, string>> = {
  SCIM_USER_NAME_TAKEN: "uniqueness",
  SCIM_USER_ALREADY_PROVISIONED: "uniqueness",
  SCIM_GROUP_NAME_TAKEN: "uniqueness",
  SCIM_INVALID_FILTER: "invalidFilter",
  SCIM_INVALID_VALUE: "invalidValue",
  SCIM_INVALID_PATH: "invalidPath",
  VALIDATION_ERROR: "invalidValue",
  INVALID_JSON: "invalidSyntax",
};

function scimJson(c: Context, body: unknown, status: 200 | 201 = 200): Response {
  return c.body(JSON.stringify(body), status, { "Content-Type": SCIM_MEDIA_TYPE });
}

/** An error in the SCIM error schema: `status` as a string (RFC 7644), `scimType` when the code has one. */
function scimError(c: Context, code: CatalogueCode, detail: string): Response {
  const status = ERROR_STATUS[code];
  const scimType = SCIM_TYPES[code];
  const body = { schemas: [SCHEMAS.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
  if (code === "SCIM_UNAUTHORIZED") c.header("WWW-Authenticate", 'Bearer realm="SCIM"');
  return c.body(JSON.stringify(body), status as 400, { "Content-Type": SCIM_MEDIA_TYPE });
}

/** A SCIM request's JSON body (application/scim+json or application/json), checked against `schema`. */
async function scimBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const mediaType = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== SCIM_MEDIA_TYPE && mediaType !== "application/json") {
    throw new DomainError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, "Send the body as application/scim+json");
  }
  let value: unknown;
  try {
    value = JSON.parse(await c.req.text());
  } catch {
    throw new DomainError(ERROR_CODES.INVALID_JSON, "The request body is not valid JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new DomainError(SCIM_ERROR_CODES.SCIM_INVALID_VALUE.code, `${where}${issue?.message ?? "invalid value"}`);
  }
  return parsed.data;
}

const CONCURRENT_CHANGE = "Another request changed this person at the same moment: try again";

/** A unique index refused a write (PostgreSQL's 23505, SQLite's constraint codes). */
function isUniqueViolation(error: Error): boolean {
  const { code } = error as { code?: unknown };
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}

const listQueryOf = (c: Context) => listQuerySchema.parse(c.req.query());

export type ScimRouteDeps = {
  db: Kysely<Database>;
  getSession: GetSession;
  assertWithinLimit: ScimDeps["assertWithinLimit"];
  /** The app's base URL: the SCIM base URL is `${baseUrl}/api/auth/scim/v2`. */
  baseUrl: string;
  /** The app's rate-limit counters (server/http/rate-limit-store.ts), described here so the web's types need no Redis. */
  rateLimitStore: {
    consume(
      key: string,
      rule: { window: number; max: number },
    ): Promise<{ allowed: boolean; retryAfter: number | null }>;
  };
  /** SCIM requests one token may make a minute. */
  requestsPerMinute: number;
};

/**
 * The SCIM 2.0 service provider, mounted at /api/auth/scim (the paths of @better-auth/scim; docs/scim.md):
 * `POST /generate-token` for an organization's owners and admins (a session), and under /v2 the discovery
 * documents, Users (the organization's members) and Groups (its teams), for a bearer token bound to one organization,
 * rate limited per token. Answers are application/scim+json, errors in the SCIM error schema.
 */
export function scimRoutes(deps: ScimRouteDeps) {
  const scimBaseUrl = `${deps.baseUrl}${SCIM_BASE_PATH}`;
  const scimDeps: ScimDeps = { db: deps.db, assertWithinLimit: deps.assertWithinLimit, baseUrl: scimBaseUrl };
  const auditOf = (c: Context<ScimEnv>) =>
    scimAuditContext(c.get("caller"), {
      ipAddress: c.get("clientIp") ?? null,
      userAgent: c.req.header("user-agent") ?? null,
    });

  const v2 = new Hono<ScimEnv>()
    .use("*", async (c, next) => {
      const caller = await authenticate(deps.db, c.req.header("authorization"));
      const decision = await deps.rateLimitStore.consume(`scim:token:${caller.tokenId}`, {
        window: 60,
        max: deps.requestsPerMinute,
      });
      if (!decision.allowed) {
        c.header("Retry-After", String(decision.retryAfter ?? 60));
        return scimError(c, ERROR_CODES.TOO_MANY_REQUESTS, "Too many requests. Please try again later.");
      }
      c.set("caller", caller);
      await next();
    })
    .get("/ServiceProviderConfig", (c) => scimJson(c, serviceProviderConfig(scimBaseUrl)))
    .get("/ResourceTypes", (c) => {
      const types = resourceTypes(scimBaseUrl);
      return scimJson(c, listResponse(types, types.length, 1));
    })
    .get("/ResourceTypes/:id", (c) => {
      const type = resourceTypes(scimBaseUrl).find((candidate) => candidate.id === c.req.param("id"));
      if (!type) return scimError(c, ERROR_CODES.NOT_FOUND, "Resource type not found");
      return scimJson(c, type);
    })
    .get("/Schemas", (c) => {
      const all = schemas(scimBaseUrl);
      return scimJson(c, listResponse(all, all.length, 1));
    })
    .get("/Schemas/:id", (c) => {
      const schema = schemas(scimBaseUrl).find((candidate) => candidate.id === c.req.param("id"));
      if (!schema) return scimError(c, ERROR_CODES.NOT_FOUND, "Schema not found");
      return scimJson(c, schema);
    })
    .get("/Users", async (c) => scimJson(c, await listUsers(scimDeps, c.get("caller"), listQueryOf(c))))
    .post("/Users", async (c) => {
      const body = await scimBody(c, userResourceSchema);
      return scimJson(c, await createUser(scimDeps, c.get("caller"), body, auditOf(c)), 201);
    })
    .get("/Users/:id", async (c) => scimJson(c, await getUser(scimDeps, c.get("caller"), c.req.param("id"))))
    .put("/Users/:id", async (c) => {
      const body = await scimBody(c, userResourceSchema);
      return scimJson(c, await replaceUser(scimDeps, c.get("caller"), c.req.param("id"), body, auditOf(c)));
    })
    .patch("/Users/:id", async (c) => {
      const { Operations } = await scimBody(c, patchRequestSchema);
      return scimJson(c, await patchUser(scimDeps, c.get("caller"), c.req.param("id"), Operations, auditOf(c)));
    })
    .delete("/Users/:id", async (c) => {
      await deleteUser(scimDeps, c.get("caller"), c.req.param("id"), auditOf(c));
      return c.body(null, 204);
    })
    .get("/Groups", async (c) => scimJson(c, await listGroups(scimDeps, c.get("caller"), listQueryOf(c))))
    .post("/Groups", async (c) => {
      const body = await scimBody(c, groupResourceSchema);
      return scimJson(c, await createGroup(scimDeps, c.get("caller"), body, auditOf(c)), 201);
    })
    .get("/Groups/:id", async (c) =>
      scimJson(c, await getGroup(scimDeps, c.get("caller"), c.req.param("id"), listQueryOf(c))),
    )
    .patch("/Groups/:id", async (c) => {
      const { Operations } = await scimBody(c, patchRequestSchema);
      return scimJson(c, await patchGroup(scimDeps, c.get("caller"), c.req.param("id"), Operations, auditOf(c)));
    })
    .delete("/Groups/:id", async (c) => {
      await deleteGroup(scimDeps, c.get("caller"), c.req.param("id"), auditOf(c));
      return c.body(null, 204);
    })
    .all("*", (c) => scimError(c, ERROR_CODES.NOT_FOUND, `No SCIM endpoint ${c.req.method} ${c.req.path}`));
  v2.onError((error, c) => {
    if (error instanceof DomainError) return scimError(c, error.code, error.message);
    // Two organizations' directories creating one new person at the same moment: the account's unique address lets
    // one through; the other is told to try again (it then links the account the first one created).
    if (isUniqueViolation(error)) return scimError(c, ERROR_CODES.CONFLICT, CONCURRENT_CHANGE);
    throw error;
  });

  return new Hono<SessionEnv>()
    .post("/generate-token", validate("json", generateScimTokenSchema), async (c) => {
      const session = await deps.getSession(c.req.raw.headers);
      if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
      c.set("session", session);
      const { providerId, organizationId } = c.req.valid("json");
      const audit = requestAuditContext(c);
      return c.json(await generateToken(deps.db, { organizationId, name: providerId, userId: session.user.id, audit }));
    })
    .route("/v2", v2);
}
