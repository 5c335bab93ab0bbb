import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { Logger } from "../logger";
import { addMember, createOrganizationWithOwner, createVerifiedUser, getSession, signInOnNewClient, type TestUser } from "../test/factories";
import { createClient, randomIp } from "../test/request";
import { settleBilling } from "../test/billing";
import { createTestApp } from "../test/test-database";
import { withTimeout } from "../timeout";

/**
 * Property-based fuzzing of the whole HTTP surface. Every endpoint — derived from better-auth's instance, the
 * app's Hono routes and the billing sandbox's routes, never listed by hand — gets generated hostile bodies,
 * query strings, path parameters and headers, from an anonymous caller, an organization owner and a platform
 * admin. Two properties must hold: no answer is a 5xx, and a refused (4xx) request leaves every table as it was.
 *
 * FUZZ_SEED and FUZZ_RUNS explore other inputs locally; the defaults are what CI runs, so a failure replays.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_001);
const RUNS_PER_ENDPOINT = Number(process.env.FUZZ_RUNS ?? 20);
/** A request that takes this long is reported as hanging rather than left to the test timeout, which says nothing. */
const REQUEST_DEADLINE_MS = 15_000;
/** Node's HTTP parser refuses request heads over 16 KB, so longer URLs and headers never reach the app. */
const MAX_HEAD_STRING = 16_000;
const MAX_BODY_STRING = 100_000;

/**
 * Tables a refused request may change, and why. Everything else is compared row by row around every 4xx.
 * The sessions table is compared: its refresh (`updateAge`) is a day, longer than any run of this file.
 */
const UNCOMPARED_TABLES: Record<string, string> = {
  // better-auth counts every request against its client address before the handler decides to refuse it.
  rateLimit: "rate-limit counters",
};
/** Columns left out of the comparison of a table that is otherwise compared, and why. */
const UNCOMPARED_COLUMNS: Record<string, string[]> = {
  // better-auth's set-active, refusing an organization the caller is not a member of, first rewrites the session's
  // active organization to null. Our hook refuses earlier when the caller has an active organization; without one,
  // null is written over null, which changes nothing but updatedAt. The columns that matter (active organization
  // and team, expiry, token) stay compared.
  session: ["updatedAt"],
};

// ---------------------------------------------------------------------------------------------------------
// The app under test, its log, and the surface derived from it

type LogEntry = { level: string; message: string; fields?: Record<string, unknown> };
const serverLog: LogEntry[] = [];
const capture =
  (level: string) =>
  (message: string, fields?: Record<string, unknown>): void => {
    serverLog.push({ level, message, fields });
  };
const logger: Logger = { debug: () => undefined, info: () => undefined, warn: capture("warn"), error: capture("error") };

// Listening, so the app's billing provider client reaches the sandbox mounted in it, and its webhooks reach the app.
const server = await createTestApp({ logger, listen: true });
const APP_ORIGIN = new URL(server.config.baseUrl).origin;
const SANDBOX_PREFIX = "/sandbox/polar";
const SANDBOX_FILE = path.join(server.config.dataDir, "billing-sandbox.sqlite");

type Family = "better-auth" | "app" | "sandbox";
type Endpoint = { family: Family; methods: readonly string[]; pattern: string; bodyKeys: string[]; queryKeys: string[]; label: string };

const ANY_METHOD = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const PROTO_KEYS = ["__proto__", "constructor", "prototype"];
/** Names the app's own routes read (their schemas live inside modules this file may not reach into). */
const GENERIC_KEYS = ["id", "search", "limit", "offset", "page", "to", "q", "sorting", "email", "token", "userId", "organizationId"];

/** Object keys anywhere inside a zod schema (v4 `def`), so generated bodies use the names an endpoint reads. */
function schemaKeys(schema: unknown, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  const def = (schema as { def?: Record<string, unknown> } | undefined)?.def;
  if (!def || seen.has(schema) || seen.size > 500) return into;
  seen.add(schema);
  if (def.type === "object" && def.shape && typeof def.shape === "object") {
    for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) {
      into.add(key);
      schemaKeys(child, into, seen);
    }
  }
  for (const field of ["innerType", "in", "out", "left", "right", "element", "valueType", "keyType"]) schemaKeys(def[field], into, seen);
  for (const field of ["options", "items"]) if (Array.isArray(def[field])) for (const child of def[field] as unknown[]) schemaKeys(child, into, seen);
  return into;
}

type AuthEndpointFunction = { path?: unknown; options?: { method?: unknown; body?: unknown; query?: unknown } };

function deriveEndpoints(): Endpoint[] {
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
    add({ family: "app", methods: route.method === "ALL" ? ANY_METHOD : [route.method], pattern: route.path, bodyKeys: [], queryKeys: GENERIC_KEYS });
  }

  const sandboxKeys = new Set<string>();
  for (const exported of Object.values(server.services.sandbox?.requestSchemas ?? {})) schemaKeys(exported, sandboxKeys);
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

const endpoints = deriveEndpoints();
const GLOBAL_KEYS = [...new Set([...endpoints.flatMap((endpoint) => [...endpoint.bodyKeys, ...endpoint.queryKeys]), ...GENERIC_KEYS])];

// ---------------------------------------------------------------------------------------------------------
// Fixtures: the callers, and real ids that generated inputs may use to get past "not found"

const KNOWN_KEYS = [
  "ownerUserId",
  "ownerEmail",
  "ownerUsername",
  "ownerSessionToken",
  "organizationId",
  "organizationSlug",
  "teamId",
  "ownerMemberId",
  "memberUserId",
  "memberEmail",
  "memberMemberId",
  "invitationId",
  "adminUserId",
  "adminEmail",
  "productId",
  "customerId",
  "checkoutId",
  "checkoutSecret",
  "paidCheckoutId",
  "subscriptionId",
  "orderId",
  "portalToken",
] as const;
type KnownKey = (typeof KNOWN_KEYS)[number];
// The member's and the invitation's ids are not rebuilt with the owner: once the owner is replaced they point into
// another organization, which is one more kind of hostile input.
const known: Partial<Record<KnownKey, string>> = {};
/** Generated text refers to fixtures by placeholder; they are filled in when the request is sent, as the fixtures may have been rebuilt. */
const placeholder = (key: string) => `KNOWN_${key}_KNOWN`;
const PLACEHOLDER = /KNOWN_([A-Za-z]+)_KNOWN/g;

type PersonaName = "anonymous" | "owner" | "admin";
type SignedIn = { user: TestUser; cookie: string; token: string };
const personas: { owner?: SignedIn; admin?: SignedIn } = {};

async function signedIn(user: TestUser): Promise<SignedIn> {
  const token = (await getSession(user.client))?.session.token;
  const cookie = user.client.jar.header();
  if (!token || !cookie) throw new Error(`${user.email} is not signed in`);
  return { user, cookie, token };
}

async function isLive(persona: SignedIn): Promise<boolean> {
  const user = await server.db.selectFrom("user").select(["id", "banned"]).where("id", "=", persona.user.id).executeTakeFirst();
  if (!user || user.banned) return false;
  const session = await server.db.selectFrom("session").select(["userId", "expiresAt"]).where("token", "=", persona.token).executeTakeFirst();
  return session?.userId === persona.user.id && new Date(session.expiresAt).getTime() > Date.now();
}

/** A persona that a previous run signed out, deleted, banned or locked out (a new password) is signed in again or replaced. */
async function revive(persona: SignedIn | undefined, label: string): Promise<{ persona: SignedIn; change: "none" | "signed-in" | "new-user" }> {
  if (persona && (await isLive(persona))) return { persona, change: "none" };
  if (persona) {
    const user = await server.db.selectFrom("user").select(["banned"]).where("id", "=", persona.user.id).executeTakeFirst();
    if (user && !user.banned) {
      try {
        const client = await signInOnNewClient(server, persona.user.input);
        return { persona: await signedIn({ ...persona.user, client }), change: "signed-in" };
      } catch {
        // The password or e-mail was changed by a fuzzed request that succeeded: a new user takes the part.
      }
    }
  }
  return { persona: await signedIn(await createVerifiedUser(server, { label })), change: "new-user" };
}

async function ensureAdmin(): Promise<void> {
  const { persona } = await revive(personas.admin, "fuzz-admin");
  personas.admin = persona;
  // The platform role is data; a fuzzed set-role may have taken it away.
  await server.db.updateTable("user").set({ role: "admin" }).where("id", "=", persona.user.id).where("role", "!=", "admin").execute();
  Object.assign(known, { adminUserId: persona.user.id, adminEmail: persona.user.email });
}

async function ensureOwner(): Promise<void> {
  const { persona, change } = await revive(personas.owner, "fuzz-owner");
  personas.owner = persona;
  const membership =
    change === "new-user"
      ? undefined
      : await server.db
          .selectFrom("member")
          .innerJoin("organization", "organization.id", "member.organizationId")
          .select(["member.id as memberId", "organization.id as organizationId", "organization.slug as slug"])
          .where("member.userId", "=", persona.user.id)
          .where("member.role", "=", "owner")
          .where("organization.id", "=", known.organizationId ?? "")
          .executeTakeFirst();
  if (membership) {
    known.organizationSlug = membership.slug;
    // The owner's requests are meant to act inside their organization: a new session starts without an active one,
    // and a fuzzed request may have switched or cleared it (every failure then replays from the same state).
    const session = await server.db.selectFrom("session").select("activeOrganizationId").where("token", "=", persona.token).executeTakeFirst();
    if (session?.activeOrganizationId !== membership.organizationId) {
      const response = await createClient(server).request("/api/auth/organization/set-active", {
        method: "POST",
        json: { organizationId: membership.organizationId },
        headers: { cookie: persona.cookie },
      });
      if (response.status !== 200) throw new Error(`set-active failed: ${response.status} ${await response.text()}`);
    }
    return;
  }
  const organization = await createOrganizationWithOwner(persona.user, "Fuzz");
  const member = await server.db
    .selectFrom("member")
    .select("id")
    .where("organizationId", "=", organization.id)
    .where("userId", "=", persona.user.id)
    .executeTakeFirstOrThrow();
  Object.assign(known, {
    ownerUserId: persona.user.id,
    ownerEmail: persona.user.email,
    ownerUsername: persona.user.input.username,
    ownerSessionToken: persona.token,
    organizationId: organization.id,
    organizationSlug: organization.slug,
    teamId: organization.defaultTeamId,
    ownerMemberId: member.id,
  });
}

async function ensurePersonas(): Promise<void> {
  await ensureOwner();
  await ensureAdmin();
  known.ownerSessionToken = personas.owner?.token;
}

async function sandboxCall<T>(method: string, pathname: string, json?: unknown): Promise<T> {
  const response = await createClient(server).request(`${SANDBOX_PREFIX}${pathname}`, { method, json, headers: { authorization: "Bearer fuzz-setup" } });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`sandbox ${method} ${pathname}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function setUpFixtures(): Promise<void> {
  await ensurePersonas();
  const owner = personas.owner!;
  const member = await createVerifiedUser(server, { label: "fuzz-member" });
  known.memberMemberId = await addMember(owner.user, known.organizationId!, member);
  Object.assign(known, { memberUserId: member.id, memberEmail: member.email });
  const invitation = await owner.user.client.post("/api/auth/organization/invite-member", {
    email: `invitee.${randomBytes(4).toString("hex")}@example.test`,
    role: "member",
    organizationId: known.organizationId,
  });
  if (invitation.status !== 200) throw new Error(`invite failed: ${invitation.status} ${JSON.stringify(invitation.data)}`);
  known.invitationId = invitation.data.id;

  await ensureSandbox();
}

async function sandboxStatus(pathname: string, authorization = "Bearer fuzz-setup"): Promise<number> {
  const response = await createClient(server).request(`${SANDBOX_PREFIX}${pathname}`, { headers: { authorization } });
  await response.text();
  return response.status;
}

/**
 * The sandbox's fixtures (a customer with a paid subscription and an order, an open checkout, a portal session) are checked before every sandbox request: fuzzed requests that succeed delete customers,
 * archive products, confirm checkouts, move the clock past sessions' expiry or reset the whole sandbox.
 */
async function ensureSandbox(): Promise<void> {
  const isUsable =
    known.portalToken !== undefined &&
    (await sandboxStatus("/v1/customer-portal/orders", `Bearer ${known.portalToken}`)) === 200 &&
    (await sandboxStatus(`/v1/checkouts/client/${known.checkoutSecret}`)) === 200 &&
    (await sandboxStatus(`/v1/subscriptions/${known.subscriptionId}`)) === 200;
  if (isUsable) return;
  type Listed = { items: Array<{ id: string; is_recurring?: boolean; is_archived?: boolean }> };
  const products = (await sandboxCall<Listed>("GET", "/v1/products?limit=100")).items.filter((item) => !item.is_archived);
  const product = products.find((item) => item.is_recurring) ?? products[0];
  if (!product) throw new Error("the sandbox has no products");
  const customer = await sandboxCall<{ id: string }>("POST", "/v1/customers", { email: `billing.${randomBytes(4).toString("hex")}@example.test` });
  const paid = await sandboxCall<{ id: string }>("POST", "/v1/checkouts", { products: [product.id], customer_id: customer.id });
  await sandboxCall("POST", `/sandbox/checkouts/${paid.id}/complete`, {});
  const subscriptions = await sandboxCall<Listed>("GET", `/v1/subscriptions?customer_id=${customer.id}`);
  const orders = await sandboxCall<Listed>("GET", `/v1/orders?customer_id=${customer.id}`);
  const open = await sandboxCall<{ id: string; client_secret: string }>("POST", "/v1/checkouts", { products: [product.id], customer_id: customer.id });
  const session = await sandboxCall<{ token: string }>("POST", "/v1/customer-sessions", { customer_id: customer.id });
  Object.assign(known, {
    productId: product.id,
    customerId: customer.id,
    checkoutId: open.id,
    checkoutSecret: open.client_secret,
    paidCheckoutId: paid.id,
    subscriptionId: subscriptions.items[0]?.id,
    orderId: orders.items[0]?.id,
    portalToken: session.token,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Snapshots of both databases (the app's, and the billing sandbox's own SQLite file)

async function listAppTables(): Promise<string[]> {
  const query =
    server.dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  return (await query.execute(server.db)).rows.map((row) => row.name).sort();
}

const appTables = await listAppTables();
const sandboxStore = new SQLite(SANDBOX_FILE, { readonly: true, fileMustExist: true });
// sqlite_* tables are SQLite's bookkeeping of the tables listed here.
const sandboxTables = sandboxStore
  .prepare<[], { name: string }>("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
  .all()
  .map((row) => row.name);

type Snapshot = Map<string, string[]>;

function canonicalRow(row: unknown): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (typeof value === "bigint") return `${value}n`;
    if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
    return value;
  });
}

async function snapshot(): Promise<Snapshot> {
  const tables = new Map<string, string[]>();
  for (const table of appTables) {
    if (table in UNCOMPARED_TABLES) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(server.db);
    const skipped = UNCOMPARED_COLUMNS[table] ?? [];
    tables.set(table, rows.map((row) => canonicalRow(Object.fromEntries(Object.entries(row).filter(([column]) => !skipped.includes(column))))).sort());
  }
  for (const table of sandboxTables) {
    tables.set(`sandbox:${table}`, sandboxStore.prepare(`select * from "${table}"`).all().map(canonicalRow).sort());
  }
  return tables;
}

/** A row's fields, with JSON documents (the sandbox stores its objects as JSON text) opened one level, for a readable diff. */
function fieldsOf(row: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(JSON.parse(row) as Record<string, unknown>)) {
    if (typeof value === "string" && value.startsWith("{")) {
      try {
        for (const [inner, innerValue] of Object.entries(JSON.parse(value) as Record<string, unknown>)) fields[`${key}.${inner}`] = innerValue;
        continue;
      } catch {
        // Not a JSON document: compared as the text it is.
      }
    }
    fields[key] = value;
  }
  return fields;
}

const identityOf = (fields: Record<string, unknown>) => String(fields.id ?? fields.key ?? Object.values(fields)[0]);

/** What changed between two snapshots: rows added and removed, and for a row that was rewritten, the fields that differ. */
function describeChanges(before: Snapshot, after: Snapshot, isExempt: (table: string) => boolean = () => false): string[] {
  const changes: string[] = [];
  for (const [table, rows] of after) {
    if (isExempt(table)) continue;
    const previous = before.get(table) ?? [];
    if (previous.join("\n") === rows.join("\n")) continue;
    const was = new Set(previous);
    const now = new Set(rows);
    const removed = new Map(previous.filter((row) => !now.has(row)).map((row) => [identityOf(fieldsOf(row)), fieldsOf(row)]));
    const lines: string[] = [];
    for (const row of rows.filter((candidate) => !was.has(candidate))) {
      const fields = fieldsOf(row);
      const old = removed.get(identityOf(fields));
      if (!old) {
        lines.push(`  + ${cut(row, 400)}`);
        continue;
      }
      removed.delete(identityOf(fields));
      const keys = [...new Set([...Object.keys(old), ...Object.keys(fields)])].filter((key) => JSON.stringify(old[key]) !== JSON.stringify(fields[key]));
      lines.push(
        `  ~ ${identityOf(fields)}: ${keys.map((key) => `${key} ${cut(JSON.stringify(old[key]), 120)} → ${cut(JSON.stringify(fields[key]), 120)}`).join(", ")}`,
      );
    }
    for (const old of removed.values()) lines.push(`  - ${cut(JSON.stringify(old), 400)}`);
    changes.push(`${table}:`, ...lines.slice(0, 6));
  }
  return changes;
}

// ---------------------------------------------------------------------------------------------------------
// Generated inputs. Long and deep values are kept as small descriptions and built only when sent, so a
// counterexample prints as `"🦄".repeat(30000)` rather than as 30000 unicorns.

class Repeat {
  constructor(
    readonly unit: string,
    readonly times: number,
  ) {}
  toString(): string {
    return this.unit.repeat(this.times);
  }
  [fc.toStringMethod](): string {
    return `${fc.stringify(this.unit)}.repeat(${this.times})`;
  }
}
type Str = string | Repeat;
const text = (value: Str): string => (typeof value === "string" ? value : value.toString());

/** A JSON literal JSON.stringify would never write (1e999, -0, 30 digits). */
class Raw {
  constructor(readonly literal: string) {}
  [fc.toStringMethod](): string {
    return `raw(${this.literal})`;
  }
}

/** Arrays or objects nested `depth` levels deep, written directly: JSON.stringify would overflow first. */
class Deep {
  constructor(
    readonly depth: number,
    readonly shape: "array" | "object" | "mixed",
  ) {}
  toString(): string {
    const open = { array: "[", object: '{"a":', mixed: '[{"a":' }[this.shape];
    const close = { array: "]", object: "}", mixed: "}]" }[this.shape];
    return `${open.repeat(this.depth)}1${close.repeat(this.depth)}`;
  }
  [fc.toStringMethod](): string {
    return `deep(${this.shape}, ${this.depth})`;
  }
}

class JArray {
  constructor(readonly items: JNode[]) {}
  [fc.toStringMethod](): string {
    return `[${this.items.map((item) => fc.stringify(item)).join(", ")}]`;
  }
}

/** Entries rather than an object, so that duplicate keys and an own `__proto__` key survive into the JSON text. */
class JObject {
  constructor(readonly entries: Array<[Str, JNode]>) {}
  [fc.toStringMethod](): string {
    return `{${this.entries.map(([key, value]) => `${fc.stringify(key)}: ${fc.stringify(value)}`).join(", ")}}`;
  }
}

type JNode = null | boolean | number | Str | Raw | Deep | JArray | JObject;

function toJson(node: JNode): string {
  if (node instanceof Raw) return node.literal;
  if (node instanceof Deep) return node.toString();
  if (node instanceof JArray) return `[${node.items.map(toJson).join(",")}]`;
  if (node instanceof JObject) return `{${node.entries.map(([key, value]) => `${JSON.stringify(text(key))}:${toJson(value)}`).join(",")}}`;
  if (node instanceof Repeat) return JSON.stringify(node.toString());
  return JSON.stringify(node) ?? "null";
}

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uDFFF",
  "x\uDBFFy",
  "\u202Eevil\u202C",
  "\u200F\u200E",
  "\u200B",
  "\uFEFF",
  "\u2028\u2029",
  "🦄",
  "👩‍👩‍👧‍👦",
  "e\u0301",
  "İı",
  "ß",
  "\t\r\n",
  "%",
  "%00",
  "%zz",
  "../../etc/passwd",
  "' OR '1'='1",
  '"; DROP TABLE "user"; --',
  "<script>alert(1)</script>",
  "${7*7}",
  "__proto__",
  "constructor",
  "prototype",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "*",
  "@",
  "a@b",
  "javascript:alert(1)",
  "http://evil.example.test/",
  "//evil.example.test",
  "/\\evil.example.test",
  "\\",
  "/",
  "..",
];
const BROKEN_ESCAPES = ["%", "%2", "%zz", "%E0%A4", "%ED%A0%80", "%C0%AF", "%FF%FE", "%%", "%u0041", "%00", "%2F", "%2e%2e", "+", "%26", "%3D", "%23"];
const PLAUSIBLE = {
  email: ["fuzz.user@example.test", "FUZZ.USER@EXAMPLE.TEST", " fuzz.user@example.test "],
  password: ["Fuzz-password-123", "short"],
  role: ["member", "admin", "owner", "user", "member,admin", "superuser"],
  url: ["/dashboard", `${APP_ORIGIN}/dashboard`, "http://evil.example.test/", "https://localhost:3000@evil.example.test/"],
  name: ["Fuzz", "fuzz-slug", "fuzz_user"],
  generic: ["true", "1", "fuzz", "example"],
};
const KNOWN_FOR: Array<[RegExp, KnownKey[]]> = [
  [/email/i, ["ownerEmail", "memberEmail", "adminEmail"]],
  [/user.?id|^id$/i, ["ownerUserId", "memberUserId", "adminUserId"]],
  [/organization|org/i, ["organizationId", "organizationSlug"]],
  [/slug/i, ["organizationSlug"]],
  [/team/i, ["teamId"]],
  [/member/i, ["ownerMemberId", "memberMemberId", "memberEmail"]],
  [/invitation|^id$/i, ["invitationId"]],
  [/token/i, ["ownerSessionToken", "portalToken"]],
  [/product/i, ["productId"]],
  [/customer/i, ["customerId", "organizationId"]],
  [/external/i, ["organizationId"]],
  [/checkout|secret/i, ["checkoutId", "checkoutSecret", "paidCheckoutId"]],
  [/subscription/i, ["subscriptionId"]],
  [/order/i, ["orderId"]],
];

const knownArb = fc.constantFrom(...KNOWN_KEYS).map(placeholder);

const longArb = (max: number): fc.Arbitrary<Repeat> =>
  fc
    .record({ unit: fc.constantFrom("a", "é", "🦄", "\u0000", "\uD800", "%", "\u202E", " ", "<"), length: fc.integer({ min: 256, max }) })
    .map(({ unit, length }) => new Repeat(unit, Math.max(1, Math.floor(length / unit.length))));

const stringArb = (maxLong: number): fc.Arbitrary<Str> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 24 }) },
    { weight: 3, arbitrary: knownArb },
    { weight: 2, arbitrary: fc.constantFrom(...Object.values(PLAUSIBLE).flat()) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.oneof(knownArb, fc.constantFrom(...PLAUSIBLE.email)), fc.constantFrom(...NASTY_STRINGS)).map(([base, tail]) => base + tail),
    },
    { weight: 1, arbitrary: longArb(maxLong) },
  );

const keyArb = (keys: string[]): fc.Arbitrary<Str> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(keys.length > 0 ? keys : GLOBAL_KEYS)) },
    { weight: 2, arbitrary: fc.constantFrom(...GLOBAL_KEYS) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  );

const deepArb = fc
  .record({ depth: fc.integer({ min: 64, max: 5_000 }), shape: fc.constantFrom("array" as const, "object" as const, "mixed" as const) })
  .map(({ depth, shape }) => new Deep(depth, shape));

const { value: jsonArb } = fc.letrec<{ value: JNode; array: JNode; object: JNode }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    { weight: 6, arbitrary: stringArb(MAX_BODY_STRING) },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("1e999", "-0", "123456789012345678901234567890", "1E-400", "-9007199254740993").map((literal) => new Raw(literal)),
    },
    { weight: 2, arbitrary: tie("array") },
    { weight: 2, arbitrary: tie("object") },
  ),
  array: fc.array(tie("value"), { maxLength: 4 }).map((items) => new JArray(items)),
  object: fc.array(fc.tuple(keyArb(GLOBAL_KEYS), tie("value")), { maxLength: 4 }).map((entries) => new JObject(entries)),
}));

/** A value for a named field: mostly something that looks right for the name (a real id, an e-mail), so handlers get past their first check. */
function fieldValueArb(key: string): fc.Arbitrary<JNode> {
  const knownKeys = KNOWN_FOR.filter(([pattern]) => pattern.test(key)).flatMap(([, keys]) => keys);
  const plausible = /mail/i.test(key)
    ? PLAUSIBLE.email
    : /password/i.test(key)
      ? PLAUSIBLE.password
      : /role/i.test(key)
        ? PLAUSIBLE.role
        : /url|redirect/i.test(key)
          ? PLAUSIBLE.url
          : /name|slug/i.test(key)
            ? PLAUSIBLE.name
            : PLAUSIBLE.generic;
  return fc.oneof(
    { weight: 3, arbitrary: knownKeys.length > 0 ? fc.constantFrom(...knownKeys).map(placeholder) : fc.constantFrom(...plausible) },
    { weight: 2, arbitrary: fc.constantFrom(...plausible) },
    { weight: 2, arbitrary: jsonArb },
  );
}

/** Every field the endpoint reads, each present or not, plausible or hostile, plus a few extra keys. */
function fullObjectArb(keys: string[]): fc.Arbitrary<JObject> {
  const field = (key: string) => fc.tuple(fc.constant<Str>(key), fieldValueArb(key));
  // A small schema: each field present or not. A large pool (the sandbox's): a handful of its fields.
  const fields: fc.Arbitrary<Array<[Str, JNode]>> =
    keys.length <= 12
      ? fc.tuple(...keys.map((key) => fc.option(field(key), { nil: undefined, freq: 5 }))).map((entries) => entries.filter((entry) => entry !== undefined))
      : fc.shuffledSubarray(keys, { maxLength: 8 }).chain((chosen) => fc.tuple(...chosen.map(field)));
  return fc.tuple(fields, fc.array(fc.tuple(keyArb(keys), jsonArb), { maxLength: 2 })).map(([present, extra]) => new JObject([...present, ...extra]));
}

const JSON_TYPES = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.api+json", "application/json; charset=utf-16"];
/** Mostly the plain type, so that most bodies are read and the handlers behind the parser get the hostile values. */
const jsonTypeArb = fc.oneof({ weight: 8, arbitrary: fc.constant("application/json") }, { weight: 2, arbitrary: fc.constantFrom(...JSON_TYPES) });
const WRONG_TYPES = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "application/xml",
  "*/*",
  "",
  "application/json, text/plain",
  "application/jsonx",
];
const BROKEN_JSON = [
  "{",
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  "[1,2",
  "nul",
  "undefined",
  '{"a":NaN}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\x41"}',
  '"just a string"',
  "42",
  "null",
  "true",
  "[]",
  "",
  " ",
  "\uFEFF{}",
  '{"a":1}{"b":2}',
  '{"__proto__":{"role":"admin","isAdmin":true}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  '{"a":1,"a":{"b":2}}',
];
const INVALID_UTF8 = [
  [0xff, 0xfe, 0x7b, 0x7d],
  [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d],
  [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
  [0x00, 0x00, 0x00],
];

type BodySpec =
  | { kind: "json"; value: JNode; contentType: string | undefined }
  | { kind: "text"; text: string | Deep | JObject; contentType: string | undefined }
  | { kind: "bytes"; bytes: number[]; contentType: string | undefined }
  | { kind: "form"; pairs: Array<[Str, Str]>; contentType: string | undefined }
  | { kind: "multipart"; pairs: Array<[Str, Str]>; boundary: string; contentType: string | undefined }
  | { kind: "none"; contentType: string | undefined };

const optionalType = (types: string[]) => fc.option(fc.constantFrom(...types), { nil: undefined, freq: 6 });

function bodyArb(keys: string[]): fc.Arbitrary<BodySpec> {
  const pairs = fc.array(fc.tuple(keyArb(keys), stringArb(MAX_BODY_STRING)), { maxLength: 4 });
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant("json" as const),
        value: fc.oneof(
          { weight: 8, arbitrary: fullObjectArb(keys) },
          { weight: 2, arbitrary: jsonArb },
          // Deep nesting inside an otherwise plausible body, where code that walks one field recursively would meet it.
          {
            weight: 1,
            arbitrary: fc
              .tuple(fullObjectArb(keys), fc.constantFrom(...keys, "metadata", "data"), deepArb)
              .map(([object, key, deep]) => new JObject([...object.entries, [key, deep]])),
          },
        ),
        contentType: jsonTypeArb,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("text" as const),
        text: fc.oneof(
          fc.constantFrom(...BROKEN_JSON),
          deepArb,
          fc.tuple(fc.constantFrom(...keys, "metadata", "data"), deepArb).map(([key, deep]) => new JObject([[key, deep]])),
        ),
        contentType: jsonTypeArb,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("json" as const), value: fullObjectArb(keys), contentType: optionalType(WRONG_TYPES) }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("bytes" as const), bytes: fc.constantFrom(...INVALID_UTF8), contentType: optionalType(JSON_TYPES) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("form" as const), pairs, contentType: optionalType(["application/x-www-form-urlencoded", ...JSON_TYPES]) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("multipart" as const),
        pairs,
        boundary: fc.constantFrom("fuzz", "", "a".repeat(100), "--", "\u00e9"),
        contentType: optionalType(["multipart/form-data; boundary=fuzz", "multipart/form-data; boundary=other", "multipart/form-data", ...JSON_TYPES]),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("none" as const), contentType: optionalType([...JSON_TYPES, ...WRONG_TYPES]) }) },
  );
}

type QueryPair = { key: Str; value: Str; encoding: "encoded" | "raw" | "bracketed" };
type QuerySpec = { pairs: QueryPair[]; suffix: string };

function queryArb(keys: string[]): fc.Arbitrary<QuerySpec> {
  const value = fc.oneof({ weight: 5, arbitrary: stringArb(MAX_HEAD_STRING) }, { weight: 1, arbitrary: fc.constantFrom(...BROKEN_ESCAPES) });
  return fc.record({
    // Repeated keys come naturally: the same key may be drawn twice.
    pairs: fc.array(
      fc.record({ key: keyArb(keys), value, encoding: fc.constantFrom("encoded" as const, "encoded" as const, "raw" as const, "bracketed" as const) }),
      {
        maxLength: 5,
      },
    ),
    suffix: fc.oneof(
      { weight: 5, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: fc.constantFrom(...BROKEN_ESCAPES, "&&", "=&=", "a=1&a=2&a[]=3", "&%&=%=") },
    ),
  });
}

type Segment = { value: Str; encoding: "encoded" | "raw" };

/** A path segment; `context` (the segment before it and the parameter's name) picks the real ids that fit, e.g. a product id after /products/. */
function segmentArb(context: string): fc.Arbitrary<Segment> {
  const fitting = KNOWN_FOR.filter(([pattern]) => pattern.test(context)).flatMap(([, keys]) => keys);
  const encoded = (value: fc.Arbitrary<Str>) => fc.record({ value, encoding: fc.constant("encoded" as const) });
  return fc.oneof(
    ...(fitting.length > 0 ? [{ weight: 4, arbitrary: encoded(fc.constantFrom(...fitting).map(placeholder)) }] : []),
    { weight: 2, arbitrary: encoded(knownArb) },
    { weight: 3, arbitrary: encoded(stringArb(2_000)) },
    { weight: 1, arbitrary: fc.record({ value: fc.constantFrom(...BROKEN_ESCAPES, "..", ".", ";", "a;b=c"), encoding: fc.constant("raw" as const) }) },
  );
}

type HeaderSpec = { cookie: Str | undefined; origin: Str | undefined; extra: Array<[string, Str]> };

const COOKIE_VARIANTS: Str[] = [
  "better-auth.session_token=",
  "better-auth.session_token=%",
  "better-auth.session_token=not-a-token",
  `better-auth.session_token=${placeholder("ownerSessionToken")}`,
  `better-auth.session_token=${placeholder("ownerSessionToken")}.forged-signature`,
  `${placeholder("cookie")}; better-auth.session_token=evil.evil`,
  `better-auth.session_token=evil.evil; ${placeholder("cookie")}`,
  `${placeholder("cookie")}; better-auth.session_data=garbage`,
  "better-auth.session_data=eyJzZXNzaW9uIjp7fX0",
  "__Secure-better-auth.session_token=x.y",
  "better-auth.dont_remember=true",
  "=;=;;",
  ";",
  "a=b=c; ; =d",
  new Repeat("a=b; ", 3_000),
  new Repeat("x", MAX_HEAD_STRING),
];
const ORIGIN_VARIANTS: Str[] = [
  "null",
  "",
  "http://evil.example.test",
  "http://localhost:3000.evil.example.test",
  "http://localhost:3001",
  "https://localhost:3000",
  "http://LOCALHOST:3000",
  "http://localhost:3000/",
  "http://localhost",
  "http://[::1",
  "javascript:alert(1)",
  "file://",
  "http://localhost:3000\u00a0",
  "http://lоcalhost:3000",
  new Repeat("http://a", 2_000),
];
const HEADER_NAMES = [
  "x-forwarded-for",
  "x-atrium-client-ip",
  "forwarded",
  "x-real-ip",
  "referer",
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
  "authorization",
  "user-agent",
  "accept",
  "accept-language",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-http-method-override",
  "if-none-match",
  "webhook-signature",
];
const HEADER_VALUES: Str[] = [
  "Bearer fuzz-token",
  `Bearer ${placeholder("portalToken")}`,
  "Bearer ",
  "Basic Og==",
  "unknown, 1.2.3.4, ::1",
  "999.999.999.999",
  "::ffff:127.0.0.1",
  "127.0.0.1",
  'for="[2001:db8::1]";proto=https',
  "cross-site",
  "same-origin",
  "navigate",
  "document",
  "DELETE",
  "*",
  new Repeat("1.1.1.1, ", 1_500),
];

function headersArb(family: Family): fc.Arbitrary<HeaderSpec> {
  const value = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...HEADER_VALUES) }, { weight: 2, arbitrary: stringArb(MAX_HEAD_STRING) });
  const authorization = fc.constantFrom<Array<[string, Str]>>(
    [["authorization", "Bearer fuzz-token"]],
    [["authorization", `Bearer ${placeholder("portalToken")}`]],
  );
  return fc.record({
    cookie: fc.oneof(
      { weight: 6, arbitrary: fc.constant(placeholder("cookie")) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constantFrom(...COOKIE_VARIANTS) },
    ),
    origin: fc.oneof(
      { weight: 12, arbitrary: fc.constant(APP_ORIGIN) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.constantFrom(...ORIGIN_VARIANTS) },
      { weight: 1, arbitrary: stringArb(MAX_HEAD_STRING) },
    ),
    // The sandbox answers 401 to every API call without a bearer token: most calls carry one, to reach its handlers.
    extra: fc
      .tuple(
        family === "sandbox" ? fc.oneof({ weight: 4, arbitrary: authorization }, fc.constant([])) : fc.constant([]),
        fc.array(fc.tuple(fc.constantFrom(...HEADER_NAMES), value), { maxLength: 3 }),
      )
      .map(([first, rest]) => [...first, ...rest]),
  });
}

type FuzzRequest = {
  persona: PersonaName;
  method: string;
  params: Segment[];
  tail: Segment[];
  query: QuerySpec;
  headers: HeaderSpec;
  body: BodySpec | undefined;
};

function requestArb(endpoint: Endpoint): fc.Arbitrary<FuzzRequest> {
  const parts = endpoint.pattern.split("/");
  const params = parts.flatMap((part, index) => (part.startsWith(":") ? [segmentArb(`${parts[index - 1] ?? ""} ${part}`)] : []));
  const isAdminEndpoint = endpoint.pattern.includes("/admin/");
  const persona = fc.oneof(
    { weight: 1, arbitrary: fc.constant<PersonaName>("anonymous") },
    { weight: isAdminEndpoint ? 1 : 3, arbitrary: fc.constant<PersonaName>("owner") },
    { weight: isAdminEndpoint ? 4 : 1, arbitrary: fc.constant<PersonaName>("admin") },
  );
  // Now and then the wrong method: the router must refuse it as cleanly as the handler refuses bad input.
  const method = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...endpoint.methods) }, { weight: 1, arbitrary: fc.constantFrom(...ANY_METHOD) });
  return method.chain((chosen) =>
    fc.record({
      persona,
      method: fc.constant(chosen),
      params: fc.tuple(...params),
      tail: endpoint.pattern.endsWith("*") ? fc.array(segmentArb(endpoint.pattern), { minLength: 1, maxLength: 3 }) : fc.constant([]),
      query: queryArb(endpoint.queryKeys),
      headers: headersArb(endpoint.family),
      body: chosen === "GET" || chosen === "HEAD" ? fc.constant(undefined) : bodyArb(endpoint.bodyKeys),
    }),
  );
}

/**
 * The same few edge cases for every endpoint, run before the random ones so that a fixed seed cannot miss them:
 * no body at all, an empty object, every field and parameter holding a NUL, every field of the wrong type, and
 * each query parameter the endpoint declares holding a NUL on its own (so no other parameter's validation hides it).
 */
function edgeCases(endpoint: Endpoint): FuzzRequest[] {
  const method = endpoint.methods[0] ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const parts = endpoint.pattern.split("/");
  const fitting = (context: string) => KNOWN_FOR.find(([pattern]) => pattern.test(context))?.[1][0];
  const params = (value?: Str): Segment[] =>
    parts.flatMap((part, index) => {
      if (!part.startsWith(":")) return [];
      const key = fitting(`${parts[index - 1] ?? ""} ${part}`);
      return [{ value: value ?? (key ? placeholder(key) : "fuzz"), encoding: "encoded" as const }];
    });
  const tail = (value?: Str): Segment[] => (endpoint.pattern.endsWith("*") ? [{ value: value ?? "fuzz", encoding: "encoded" }] : []);
  const json = (entries: Array<[Str, JNode]>): BodySpec | undefined =>
    hasBody ? { kind: "json", value: new JObject(entries), contentType: "application/json" } : undefined;
  const base: FuzzRequest = {
    persona: endpoint.pattern.includes("/admin/") ? "admin" : "owner",
    method,
    params: params(),
    tail: tail(),
    query: { pairs: [], suffix: "" },
    headers: { cookie: placeholder("cookie"), origin: APP_ORIGIN, extra: endpoint.family === "sandbox" ? [["authorization", "Bearer fuzz-token"]] : [] },
    body: hasBody ? { kind: "none", contentType: undefined } : undefined,
  };
  const nul = "a\u0000b";
  const bodyKeys = endpoint.bodyKeys.slice(0, 40);
  return [
    base,
    { ...base, body: json([]) },
    {
      ...base,
      params: params(nul),
      tail: tail(nul),
      query: { pairs: endpoint.queryKeys.slice(0, 40).map((key) => ({ key, value: nul, encoding: "encoded" as const })), suffix: "" },
      body: json(bodyKeys.map((key) => [key, nul])),
    },
    {
      ...base,
      query: { pairs: endpoint.queryKeys.slice(0, 40).map((key) => ({ key, value: "[]", encoding: "bracketed" as const })), suffix: "" },
      body: json(bodyKeys.map((key, index) => [key, [1, true, new JArray([]), new JObject([["a", null]]), new Raw("1e999")][index % 5] ?? null])),
    },
    // The sandbox's keys are one pool for all its routes, not the route's own: one request per key would be noise.
    ...(endpoint.family === "sandbox" ? [] : endpoint.queryKeys).map((key): FuzzRequest => ({
      ...base,
      query: { pairs: [{ key, value: nul, encoding: "encoded" }], suffix: "" },
    })),
  ];
}

// ---------------------------------------------------------------------------------------------------------
// Sending a generated request, and judging the answer

/** UTF-8 percent-encoding that, unlike encodeURIComponent, also takes lone surrogates (as U+FFFD, as a browser would). */
function percentEncode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** What a header can carry: the UTF-8 bytes as Latin-1 (as Node hands them over), without the bytes HTTP forbids. */
function headerValue(value: string): string {
  return Buffer.from(value, "utf8")
    .toString("latin1")
    .replace(/[\0\r\n]/g, "");
}

function resolve(textWithPlaceholders: string, persona: PersonaName): string {
  return textWithPlaceholders.replace(PLACEHOLDER, (match, key: string) => {
    if (key === "cookie") return persona === "anonymous" ? "" : (personas[persona]?.cookie ?? "");
    return known[key as KnownKey] ?? match;
  });
}

type Sent = { method: string; url: string; headers: Record<string, string>; body: Buffer | undefined };

function materialize(endpoint: Endpoint, request: FuzzRequest): Sent {
  const params = [...request.params];
  const segment = ({ value, encoding }: Segment) => (encoding === "raw" ? text(value) : percentEncode(text(value)));
  const pathname = endpoint.pattern
    .split("/")
    .map((part) =>
      part.startsWith(":") ? segment(params.shift() ?? { value: "", encoding: "raw" }) : part === "*" ? request.tail.map(segment).join("/") : part,
    )
    .join("/")
    // A leading "//" would make the URL parser read a host: the path stays a path.
    .replace(/^\/+/, "/");
  const query = [
    ...request.query.pairs.map(({ key, value, encoding }) => {
      if (encoding === "raw") return `${text(key)}=${text(value)}`.replace(/#/g, "%23");
      const name = encoding === "bracketed" ? `${percentEncode(text(key))}[${percentEncode(text(key))}][]` : percentEncode(text(key));
      return `${name}=${percentEncode(text(value))}`;
    }),
    ...(request.query.suffix ? [request.query.suffix] : []),
  ].join("&");
  const url = resolve(`${pathname}${query ? `?${query}` : ""}`, request.persona);

  const headers: Record<string, string> = {};
  const setHeader = (name: string, value: Str | undefined) => {
    if (value === undefined) return;
    const resolved = headerValue(resolve(text(value), request.persona));
    if (resolved.trim()) headers[name] = resolved;
  };
  setHeader("cookie", request.headers.cookie);
  setHeader("origin", request.headers.origin);
  for (const [name, value] of request.headers.extra) setHeader(name, value);

  const body = request.body;
  if (!body) return { method: request.method, url, headers, body: undefined };
  if (body.contentType !== undefined) headers["content-type"] = body.contentType;
  const utf8 = (value: string) => Buffer.from(resolve(value, request.persona), "utf8");
  switch (body.kind) {
    case "json":
      return { method: request.method, url, headers, body: utf8(toJson(body.value)) };
    case "text":
      return { method: request.method, url, headers, body: utf8(typeof body.text === "string" ? body.text : toJson(body.text)) };
    case "bytes":
      return { method: request.method, url, headers, body: Buffer.from(body.bytes) };
    case "form":
      return {
        method: request.method,
        url,
        headers,
        body: utf8(body.pairs.map(([key, value]) => `${percentEncode(text(key))}=${percentEncode(text(value))}`).join("&")),
      };
    case "multipart": {
      const parts = body.pairs.map(([key, value]) => `--${body.boundary}\r\nContent-Disposition: form-data; name="${text(key)}"\r\n\r\n${text(value)}\r\n`);
      return { method: request.method, url, headers, body: utf8(`${parts.join("")}--${body.boundary}--\r\n`) };
    }
    case "none":
      return { method: request.method, url, headers, body: undefined };
  }
}

function cut(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} chars)`;
}

function describeRequest(persona: PersonaName, sent: Sent): string {
  const headerLines = Object.entries(sent.headers).map(([name, value]) => `  ${name}: ${cut(JSON.stringify(value), 200)}`);
  const bodyLine = sent.body === undefined ? "  (no body)" : `  body (${sent.body.length} bytes): ${cut(JSON.stringify(sent.body.toString("utf8")), 400)}`;
  return [`${sent.method} ${cut(sent.url, 400)}  as ${persona}`, ...headerLines, bodyLine].join("\n");
}

function describeLog(entries: LogEntry[]): string {
  if (entries.length === 0) return "server log: (nothing)";
  return ["server log:", ...entries.map((entry) => `  ${entry.level} ${cut(entry.message, 300)} ${cut(JSON.stringify(entry.fields ?? {}), 1_200)}`)].join("\n");
}

async function withDeadline<T>(work: Promise<T>, what: () => string): Promise<T> {
  return await withTimeout(
    REQUEST_DEADLINE_MS,
    () => `no answer within ${REQUEST_DEADLINE_MS} ms\n${what()}`,
    () => work,
  );
}

/** Every answer, so the last test can tell whether the generated requests got past the gates to the handlers. */
const answers: Array<{ family: Family; persona: PersonaName; status: number }> = [];

async function exchange(endpoint: Endpoint, request: FuzzRequest): Promise<void> {
  await ensurePersonas();
  if (endpoint.family === "sandbox") await ensureSandbox();
  // Mail queued and webhooks sent by an earlier, successful request are delivered and applied now, so their rows
  // do not change under this one.
  await server.services.worker.drain();
  await settleBilling(server);
  const sent = materialize(endpoint, request);
  const before = await snapshot();
  const logStart = serverLog.length;
  const client = createClient(server, randomIp());
  const answer = await withDeadline(
    (async () => {
      const response = await client.request(sent.url, {
        method: sent.method,
        headers: sent.headers,
        body: sent.body && Uint8Array.from(sent.body),
        origin: null,
        withoutCookies: true,
      });
      return { status: response.status, text: await response.text() };
    })(),
    () => describeRequest(request.persona, sent),
  );
  const report = (problem: string, details: string[] = []) =>
    [problem, describeRequest(request.persona, sent), `→ ${answer.status} ${cut(answer.text, 600)}`, ...details, describeLog(serverLog.slice(logStart))].join(
      "\n",
    );
  answers.push({ family: endpoint.family, persona: request.persona, status: answer.status });
  if (answer.status >= 500) throw new Error(report(`answered ${answer.status}`));
  if (answer.status >= 400) {
    // A declined test card is the one refusal the provider records: the checkout turns `failed` (and webhooks say so)
    // before the 400 goes out, exactly as the sandbox's own tests expect.
    const isRecordedDecline = endpoint.family === "sandbox" && answer.status === 400 && answer.text.includes('"error":"PaymentError"');
    const changes = describeChanges(before, await snapshot(), (table) => isRecordedDecline && (table.startsWith("sandbox:") || table.startsWith("billing_")));
    if (changes.length > 0) throw new Error(report(`refused with ${answer.status} but changed the database`, changes));
  }
}

/** A seed per endpoint, fixed and independent of the others, so adding an endpoint does not reshuffle every other one's inputs. */
function seedFor(endpoint: Endpoint): number {
  return (createHash("sha256").update(endpoint.label).digest().readInt32BE(0) ^ SEED) | 0;
}

// ---------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  // The billing sandbox reports its unhandled errors on the console: they belong in the reproduction, not in the test output.
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    serverLog.push({ level: "console.error", message: args.map((arg) => (arg instanceof Error ? `${arg.stack}` : String(arg))).join(" ") });
  });
  await setUpFixtures();
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  sandboxStore.close();
  await server.close();
});

describe("the fuzzed surface is derived, not listed", () => {
  test("better-auth's endpoints, the app's own routes and the billing sandbox's routes are all there", () => {
    const byFamily = (family: Family) => endpoints.filter((endpoint) => endpoint.family === family);
    expect(byFamily("better-auth").length).toBeGreaterThan(50);
    expect(byFamily("sandbox").length).toBeGreaterThan(40);
    const patterns = endpoints.map((endpoint) => endpoint.pattern);
    for (const expected of [
      "/healthz",
      "/api/meta",
      "/api/organizations/:organizationId/members",
      "/api/organizations/:organizationId/teams",
      "/api/invitations/:invitationId",
      "/api/dev/mail",
      "/api/auth/sign-up/email",
      "/api/auth/admin/ban-user",
      `${SANDBOX_PREFIX}/v1/checkouts`,
      `${SANDBOX_PREFIX}/sandbox/clock/advance`,
    ]) {
      expect(patterns).toContain(expected);
    }
  });

  test("both databases' tables are compared, except the few that refused requests legitimately change", () => {
    expect(appTables).toEqual(
      expect.arrayContaining(["user", "session", "account", "verification", "organization", "member", "invitation", "team", "mail_outbox"]),
    );
    expect(appTables).toEqual(expect.arrayContaining(Object.keys(UNCOMPARED_TABLES)));
    expect(appTables).toEqual(expect.arrayContaining(Object.keys(UNCOMPARED_COLUMNS)));
    expect(existsSync(SANDBOX_FILE)).toBe(true);
    expect(sandboxTables).toContain("records");
  });
});

describe.each(["better-auth", "app", "sandbox"] as const)("%s endpoints under hostile input", (family) => {
  test.each(endpoints.filter((endpoint) => endpoint.family === family).map((endpoint) => [endpoint.label, endpoint] as const))(
    "%s: never a 5xx, and a refusal changes nothing",
    async (_label, endpoint) => {
      const examples = edgeCases(endpoint).map((request) => [request] as [FuzzRequest]);
      await fc.assert(
        fc.asyncProperty(requestArb(endpoint), (request) => exchange(endpoint, request)),
        {
          seed: seedFor(endpoint),
          // fast-check counts the examples among the runs: the random runs come on top of them.
          numRuns: examples.length + RUNS_PER_ENDPOINT,
          examples,
          // Shrinking a failure is stopped after a while: the counterexample reached by then is reported with its seed.
          plugins: [fc.interruptAfterTimeLimit(40_000)],
        },
      );
    },
    60_000,
  );
});

describe("the fuzzer reaches the handlers", () => {
  // A fuzzer whose requests all bounce off the origin check, the content-type check or the rate limiter would pass
  // while proving nothing: most answers must come from further in.
  test("every family has answers that succeeded, and better-auth's are mostly not gatekeeping refusals", () => {
    for (const family of ["better-auth", "app", "sandbox"] as const) {
      const statuses = answers.filter((answer) => answer.family === family).map((answer) => answer.status);
      expect(
        statuses.some((status) => status < 300),
        family,
      ).toBe(true);
      expect(
        statuses.some((status) => status >= 400 && status < 500),
        family,
      ).toBe(true);
    }
    for (const persona of ["anonymous", "owner", "admin"] as const) {
      expect(
        answers.some((answer) => answer.family === "better-auth" && answer.persona === persona && answer.status < 300),
        persona,
      ).toBe(true);
    }
    const authAnswers = answers.filter((answer) => answer.family === "better-auth");
    const gatekeeping = authAnswers.filter((answer) => [401, 403, 415, 429].includes(answer.status));
    expect(gatekeeping.length / authAnswers.length).toBeLessThan(0.5);
    expect(answers.filter((answer) => answer.status === 429).length / answers.length).toBeLessThan(0.01);
  });
});
