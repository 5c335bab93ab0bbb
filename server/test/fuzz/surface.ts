import path from "node:path";
import type { Logger } from "../../logger";
import { createTestApp } from "../test-database";

/**
 * The fuzzed app (started when this module loads, listening so its billing client reaches the sandbox mounted
 * in it), its log, the run's settings, and the HTTP surface derived from it: better-auth's endpoints, the app's
 * Hono routes and the billing sandbox's routes.
 */

export const SEED = Number(process.env.FUZZ_SEED ?? 20_261_001);
export const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 20);
/** A request that takes this long is reported as hanging rather than left to the test timeout, which says nothing. */
export const REQUEST_DEADLINE_MS = 15_000;
/** Node's HTTP parser refuses request heads over 16 KB, so longer URLs and headers never reach the app. */
export const MAX_HEAD_STRING = 16_000;
export const MAX_BODY_STRING = 100_000;

/**
 * Tables a refused request may change, and why. Everything else is compared row by row around every 4xx.
 * The sessions table is compared: its refresh (`updateAge`) is a day, longer than any run of this file.
 */
export const UNCOMPARED_TABLES: Record<string, string> = {
  // better-auth counts every request against its client address before the handler decides to refuse it.
  rateLimit: "rate-limit counters",
};
/** Columns left out of the comparison of a table that is otherwise compared, and why. */
export const UNCOMPARED_COLUMNS: Record<string, string[]> = {
  // better-auth's set-active, refusing an organization the caller is not a member of, first rewrites the session's
  // active organization to null. Our hook refuses earlier when the caller has an active organization; without one,
  // null is written over null, which changes nothing but updatedAt. The columns that matter (active organization
  // and team, expiry, token) stay compared.
  session: ["updatedAt"],
};

// ---------------------------------------------------------------------------------------------------------
// The app under test, its log, and the surface derived from it

export type LogEntry = { level: string; message: string; fields?: Record<string, unknown> };
export const serverLog: LogEntry[] = [];
export const capture =
  (level: string) =>
  (message: string, fields?: Record<string, unknown>): void => {
    serverLog.push({ level, message, fields });
  };
export const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: capture("warn"),
  error: capture("error"),
};

// Listening, so the app's billing provider client reaches the sandbox mounted in it, and its webhooks reach the app.
export const server = await createTestApp({ logger, listen: true });
export const APP_ORIGIN = new URL(server.config.baseUrl).origin;
export const SANDBOX_PREFIX = "/sandbox/polar";
export const SANDBOX_FILE = path.join(server.config.dataDir, "billing-sandbox.sqlite");

export type Family = "better-auth" | "app" | "sandbox";
export type Endpoint = {
  family: Family;
  methods: readonly string[];
  pattern: string;
  bodyKeys: string[];
  queryKeys: string[];
  label: string;
};

export const ANY_METHOD = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
export const PROTO_KEYS = ["__proto__", "constructor", "prototype"];
/** Names the app's own routes read (their schemas live inside modules this file may not reach into). */
export const GENERIC_KEYS = [
  "id",
  "search",
  "limit",
  "offset",
  "page",
  "to",
  "q",
  "sorting",
  "email",
  "token",
  "userId",
  "organizationId",
];

/** Object keys anywhere inside a zod schema (v4 `def`), so generated bodies use the names an endpoint reads. */
export function schemaKeys(schema: unknown, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  const def = (schema as { def?: Record<string, unknown> } | undefined)?.def;
  if (!def || seen.has(schema) || seen.size > 500) return into;
  seen.add(schema);
  if (def.type === "object" && def.shape && typeof def.shape === "object") {
    for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) {
      into.add(key);
      schemaKeys(child, into, seen);
    }
  }
  for (const field of ["innerType", "in", "out", "left", "right", "element", "valueType", "keyType"])
    schemaKeys(def[field], into, seen);
  for (const field of ["options", "items"])
    if (Array.isArray(def[field])) for (const child of def[field] as unknown[]) schemaKeys(child, into, seen);
  return into;
}

export type AuthEndpointFunction = { path?: unknown; options?: { method?: unknown; body?: unknown; query?: unknown } };

export function deriveEndpoints(): Endpoint[] {
  const found = new Map<string, Endpoint>();
  const add = (endpoint: Omit<Endpoint, "label">) => {
    const label = `${endpoint.methods.length === ANY_METHOD.length ? "ALL" : endpoint.methods.join("|")} ${endpoint.pattern}`;
    if (!found.has(label)) found.set(label, { ...endpoint, label });
  };

  for (const candidate of Object.values(server.services.auth.api as Record<string, AuthEndpointFunction>)) {
    // Endpoints without a path are server-only (callable from code, not over HTTP).
    if (typeof candidate?.path !== "string") continue;
    const method = candidate.options?.method;
    const methods = (Array.isArray(method) ? method : [method])
      .map(String)
      .map((name) => (name === "*" ? ANY_METHOD : [name]))
      .flat();
    add({
      family: "better-auth",
      methods,
      pattern: `/api/auth${candidate.path}`,
      bodyKeys: [...schemaKeys(candidate.options?.body)],
      queryKeys: [...schemaKeys(candidate.options?.query)],
    });
  }

  for (const route of server.app.routes) {
    // better-auth's catch-all and the sandbox's mount are expanded into their own endpoints above and below.
    if (route.path === "/api/auth/*" || route.path === `${SANDBOX_PREFIX}/*`) continue;
    add({
      family: "app",
      methods: route.method === "ALL" ? ANY_METHOD : [route.method],
      pattern: route.path,
      bodyKeys: [],
      queryKeys: GENERIC_KEYS,
    });
  }

  const sandboxKeys = new Set<string>();
  for (const exported of Object.values(server.services.sandbox?.requestSchemas ?? {}))
    schemaKeys(exported, sandboxKeys);
  for (const route of server.services.sandbox?.app.routes ?? []) {
    add({
      family: "sandbox",
      methods: route.method === "ALL" ? ANY_METHOD : [route.method],
      pattern: `${SANDBOX_PREFIX}${route.path === "/" ? "" : route.path}`,
      bodyKeys: [...sandboxKeys],
      queryKeys: [...sandboxKeys, ...GENERIC_KEYS],
    });
  }
  return [...found.values()];
}

export const endpoints = deriveEndpoints();
export const GLOBAL_KEYS = [
  ...new Set([...endpoints.flatMap((endpoint) => [...endpoint.bodyKeys, ...endpoint.queryKeys]), ...GENERIC_KEYS]),
];
