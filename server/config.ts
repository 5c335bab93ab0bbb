import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import path from "node:path";
import proxyAddr from "proxy-addr";
import { z } from "zod";

/** The only place that reads `process.env`. Everything else receives a typed `Config`. */

const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  );

/** A comma-separated list whose every item must pass `isValid`; each bad item is named. */
const csvOf = (isValid: (item: string) => boolean, message: string) =>
  csv.superRefine((items, ctx) => {
    for (const item of items) if (!isValid(item)) ctx.addIssue({ code: "custom", message: `${message}: ${item}` });
  });

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * A DNS server as node:dns's Resolver#setServers takes it: an IP address, with an optional port (`1.1.1.1`,
 * `127.0.0.1:5353`, `[::1]:5353`). Host names are refused: a resolver cannot be found through DNS itself.
 */
export function isDnsServer(item: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(item);
  const plain = /^([^:]+)(?::(\d{1,5}))?$/.exec(item);
  const [, host, port] = bracketed ?? plain ?? (isIP(item) === 6 ? [item, item, undefined] : []);
  if (!host || isIP(host) === 0) return false;
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => (value === undefined || value === "" ? undefined : value === "true" || value === "1"));

const optionalUrl = z
  .union([z.literal(""), z.url()])
  .optional()
  .transform((value) => value || undefined);

const PORT_MESSAGE = "must be a port number from 0 to 65535";

/** Most processes WEB_CONCURRENCY may ask for: a typo (10000 for 10) must not fork the machine to its knees. */
export const MAX_WEB_CONCURRENCY = 1024;
const WEB_CONCURRENCY_MESSAGE = `must be a whole number of processes from 1 to ${MAX_WEB_CONCURRENCY}, or auto (one per CPU core)`;

/** Processes serving HTTP: a number, or `auto` for one per core this process may use; unset or empty is 1. */
const webConcurrency = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const text = (value ?? "").trim().toLowerCase();
    if (text === "") return 1;
    if (text === "auto") return availableParallelism();
    const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (count >= 1 && count <= MAX_WEB_CONCURRENCY) return count;
    ctx.addIssue({ code: "custom", message: WEB_CONCURRENCY_MESSAGE });
    return z.NEVER;
  });

/** Milliseconds for the shutdown's waits: a typo must neither make them negative nor hold a stop for hours. */
const MAX_SHUTDOWN_MS = 600_000;
const shutdownMs = (what: string) =>
  z.coerce
    .number({ error: `must be a whole number of milliseconds (${what})` })
    .int(`must be a whole number of milliseconds (${what})`)
    .min(0, `must be 0 or more milliseconds (${what})`)
    .max(MAX_SHUTDOWN_MS, `must be at most ${MAX_SHUTDOWN_MS} milliseconds (${what})`)
    .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce
    .number({ error: PORT_MESSAGE })
    .int(PORT_MESSAGE)
    .min(0, PORT_MESSAGE)
    .max(65535, PORT_MESSAGE)
    .default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  WEB_CONCURRENCY: webConcurrency,
  BASE_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  TRUSTED_ORIGINS: csvOf(isHttpUrl, "not an http(s) URL"),
  TRUSTED_PROXIES: csvOf(isTrustExpression, "not an IP address, a CIDR range or loopback/linklocal/uniquelocal"),
  ADMIN_EMAILS: csv,
  ADMIN_USER_IDS: csv,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().min(3).default("Atrium <no-reply@atrium.localhost>"),
  DEV_MAILBOX: flag,
  MAIL_SEND_TIMEOUT_MS: z.coerce
    .number()
    .int("use whole milliseconds")
    .min(1_000, "use at least 1000 milliseconds")
    .max(600_000, "use at most 600000 milliseconds (10 minutes)")
    .default(30_000),
  BILLING_SANDBOX: flag,
  REDIS_URL: optionalUrl,
  POLAR_ACCESS_TOKEN: z.string().optional(),
  POLAR_SERVER_URL: optionalUrl,
  POLAR_WEBHOOK_SECRET: z.string().optional(),
  SANDBOX_ACCESS_TOKEN: z.string().optional(),
  ORGANIZATION_LIMIT: z.coerce.number().int().positive().optional(),
  ALLOW_ORGANIZATION_CREATION: z.enum(["everyone", "admins", "nobody"]).default("everyone"),
  DISABLE_ORGANIZATION_DELETION: flag,
  BILLING_RECONCILE_SECONDS: z.coerce
    .number()
    .int("use whole seconds")
    .min(1, "use at least 1 second")
    .max(604_800, "use at most 604800 seconds (a week)")
    .default(21_600),
  SCIM_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int("use a whole number")
    .min(1, "use at least 1")
    .max(100_000, "use at most 100000")
    .default(600),
  BILLING_CALLS_PER_MINUTE: z.coerce
    .number()
    .int("use a whole number")
    .min(1, "use at least 1")
    .max(100_000, "use at most 100000")
    .default(10),
  API_KEY_REQUESTS_PER_MINUTE: z.coerce
    .number()
    .int("use a whole number")
    .min(1, "use at least 1")
    .max(1_000_000, "use at most 1000000")
    .default(600),
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int("use whole days")
    .min(1, "use at least 1 day")
    .max(36_500, "use at most 36500 days")
    .default(365),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_NAME: z.string().trim().max(40, "use at most 40 characters").optional(),
  DEV_IDENTITY_PROVIDER: flag,
  DEV_SAML_IDP: flag,
  DNS_SERVERS: csvOf(isDnsServer, "not an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53)"),
  DEV_DNS_SERVER: flag,
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: flag,
  WEBHOOK_RETENTION_DAYS: z.coerce
    .number()
    .int("use whole days")
    .min(1, "use at least 1 day")
    .max(3_650, "use at most 3650 days")
    .default(30),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((value) => value || undefined)
    .refine(
      (value) => value === undefined || value.length >= 16,
      "must be at least 16 characters (it guards the metrics endpoint)",
    ),
  SHUTDOWN_DELAY_MS: shutdownMs("how long the server keeps serving after SIGTERM while readiness says it is stopping"),
  SHUTDOWN_TIMEOUT_MS: shutdownMs("how long in-flight requests and jobs may take to finish after that"),
  DEVELOPMENT_DEPLOYMENT: flag,
});

/** The name of every variable the server reads (.env.example and docs/configuration.md list each: a test checks). */
export const ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** What proxy-addr accepts: an address, a CIDR range or a named range such as `loopback`. */
function isTrustExpression(item: string): boolean {
  try {
    proxyAddr.compile(item);
    return true;
  } catch {
    return false;
  }
}

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

export type Config = {
  env: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string;
  /**
   * Processes serving HTTP on `port` (WEB_CONCURRENCY). 1 is one process, as without it; more is a cluster: a
   * primary that migrates and supervises, and that many workers sharing the port (server/cluster.ts).
   */
  webConcurrency: number;
  baseUrl: string;
  isHttps: boolean;
  dataDir: string;
  database: { dialect: "sqlite"; file: string } | { dialect: "postgres"; url: string };
  authSecret: string;
  trustedOrigins: string[];
  trustedProxies: string[];
  adminEmails: string[];
  adminUserIds: string[];
  /** `sendTimeoutMs`: how long one mail's send may take before the outbox worker abandons it and retries later. */
  mail: { from: string; smtpUrl?: string; devMailbox: boolean; sendTimeoutMs: number };
  billingSandbox: boolean;
  /** The billing sandbox accepts any bearer token unless `accessToken` is set. */
  sandbox: { accessToken?: string };
  redisUrl?: string;
  /**
   * The billing provider the app talks to: the real one when POLAR_ACCESS_TOKEN and POLAR_SERVER_URL are set,
   * otherwise the built-in sandbox when it runs, otherwise none: billing is off (no plan limits; the billing endpoints
   * answer 404 BILLING_NOT_CONFIGURED).
   */
  billing: { provider: "polar" | "sandbox"; serverUrl: string; accessToken: string; webhookSecret: string } | null;
  /**
   * How many billing provider calls (checkout, plan change, portal, refund, reconciliation) one user may start a
   * minute (BILLING_CALLS_PER_MINUTE, 10 by default); one client address three times as many.
   */
  billingCallsPerMinute: number;
  /** How many SCIM requests one directory token may make a minute (SCIM_REQUESTS_PER_MINUTE, 600 by default). */
  scimRequestsPerMinute: number;
  /** How many requests one organization API key may make a minute (API_KEY_REQUESTS_PER_MINUTE, 600 by default). */
  apiKeyRequestsPerMinute: number;
  /** How often one instance re-reads every billed organization from the provider (BILLING_RECONCILE_SECONDS). */
  billingReconcileEveryMs: number;
  organizations: {
    limit?: number;
    whoMayCreate: "everyone" | "admins" | "nobody";
    isDeletionDisabled: boolean;
  };
  /** The sign-in providers besides e-mail and password, in the order their buttons appear. */
  socialProviders: SocialProviderConfig[];
  /**
   * Whether the development SAML identity provider answers at /dev/saml (DEV_SAML_IDP; on outside production). Its
   * key and certificate are kept in `dataDir` (docs/decisions/0022).
   */
  devSamlIdp: boolean;
  /** Audit log entries older than this many days are purged (docs/decisions/0010). */
  audit: { retentionDays: number };
  /**
   * Outbound webhooks (docs/webhooks.md): whether endpoints may be private, loopback or unresolvable addresses
   * (WEBHOOKS_ALLOW_PRIVATE_TARGETS; on outside production only), whether the development receiver answers at
   * /dev/webhooks (outside production, never in it), and after how many days delivered and given-up messages are
   * purged with their attempts (WEBHOOK_RETENTION_DAYS, 30 by default).
   */
  webhooks: { allowPrivateTargets: boolean; devReceiver: boolean; retentionDays: number };
  /**
   * Where SSO domain verification looks TXT records up (docs/sso.md): `servers` from DNS_SERVERS (the system's
   * resolvers when empty); `devServer` runs the development DNS server on 127.0.0.1 with its page at /dev/dns (on by
   * default outside production in one process), which the lookups use when DNS_SERVERS is empty.
   */
  dns: { servers: string[]; devServer: boolean };
  logLevel: "debug" | "info" | "warn" | "error";
  /** The bearer token GET /metrics asks for; without one the endpoint is not published (404). */
  metricsToken?: string;
  /**
   * SIGTERM (server/main.ts): readiness turns false at once, the server keeps serving for `delayMs` (so the load
   * balancer stops sending), then stops accepting and gives in-flight requests and jobs `timeoutMs` to finish.
   */
  shutdown: { delayMs: number; timeoutMs: number };
};

/** The real provider when configured; the sandbox (on by default outside production) otherwise. */
function billingProvider(
  env: {
    POLAR_ACCESS_TOKEN?: string;
    POLAR_SERVER_URL?: string;
    POLAR_WEBHOOK_SECRET?: string;
    BILLING_SANDBOX?: boolean;
    SANDBOX_ACCESS_TOKEN?: string;
  },
  deployment: { baseUrl: string; dataDir: string; isProduction: boolean },
): Config["billing"] {
  if (env.POLAR_ACCESS_TOKEN && env.POLAR_SERVER_URL && env.POLAR_WEBHOOK_SECRET) {
    return {
      provider: "polar",
      serverUrl: env.POLAR_SERVER_URL.replace(/\/+$/, ""),
      accessToken: env.POLAR_ACCESS_TOKEN,
      webhookSecret: env.POLAR_WEBHOOK_SECRET,
    };
  }
  if (!(env.BILLING_SANDBOX ?? !deployment.isProduction)) return null;
  return {
    provider: "sandbox",
    serverUrl: `${deployment.baseUrl}/sandbox/polar`,
    accessToken: env.SANDBOX_ACCESS_TOKEN || "atrium-sandbox",
    // The sandbox registers the app's webhook endpoint with this secret on every start, so one kept with the
    // data (like the development auth secret) is all it needs.
    webhookSecret:
      env.POLAR_WEBHOOK_SECRET ||
      `whsec_${readOrCreateDevelopmentSecret(deployment.dataDir, "billing-webhook-secret").replace(/[^A-Za-z0-9]/g, "")}`,
  };
}

/**
 * A sign-in provider: GitHub and Google (better-auth's own), any OpenID Connect provider found by its issuer
 * (`oidc`), and the development identity provider this server runs itself (`dev`, an OpenID Connect provider too).
 */
type OAuthClient = { name: string; clientId: string; clientSecret: string };
export type SocialProviderConfig =
  | ({ id: "github" } & OAuthClient)
  | ({ id: "google" } & OAuthClient)
  | ({ id: "oidc"; issuer: string } & OAuthClient)
  | ({ id: "dev"; issuer: string } & OAuthClient);
export type SocialProviderId = SocialProviderConfig["id"];

/** Where the development identity provider answers, under the app's own origin. */
export const DEV_IDENTITY_PROVIDER_PATH = "/dev/oidc";

/** Where the development DNS server's console answers (DEV_DNS_SERVER), under the app's origin. */
export const DEV_DNS_PATH = "/dev/dns";
/** Where the development webhook receiver answers (outside production only). */
export const DEV_WEBHOOKS_PATH = "/dev/webhooks";

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Parses the environment once. Every variable is parsed on its own and the rules between variables run
 * on whatever parsed, so one bad value never hides another problem: all of them are listed together.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const parsed: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(envSchema.shape)) {
    const result = (schema as z.ZodType).safeParse(source[name]);
    if (result.success) parsed[name] = result.data;
    else problems.push(...result.error.issues.map((issue) => `${name}: ${issue.message}`));
  }
  const env = parsed as z.infer<typeof envSchema>;
  const isProduction = env.NODE_ENV === "production";

  if (isProduction) {
    if (!env.AUTH_SECRET && source.AUTH_SECRET === undefined)
      problems.push("AUTH_SECRET: required in production (32+ random characters)");
    if (!env.SMTP_URL && source.SMTP_URL === undefined)
      problems.push("SMTP_URL: required in production, e.g. smtps://user:pass@smtp.example.com:465");
    if (env.DEV_MAILBOX === true) {
      problems.push(
        "DEV_MAILBOX: not allowed in production: the dev mailbox shows every mail, password-reset links included, to whoever opens it",
      );
    }
    if (env.BILLING_SANDBOX === true && !env.SANDBOX_ACCESS_TOKEN) {
      problems.push(
        "SANDBOX_ACCESS_TOKEN: required in production when BILLING_SANDBOX=true (32+ random characters), or the sandbox accepts any token",
      );
    } else if (env.BILLING_SANDBOX === true && (env.SANDBOX_ACCESS_TOKEN?.length ?? 0) < 32) {
      problems.push("SANDBOX_ACCESS_TOKEN: must be at least 32 characters in production");
    }
    // Over plain http, passwords and session cookies would cross the network readable: only a loopback address may.
    const baseUrl = env.BASE_URL === undefined ? undefined : new URL(env.BASE_URL);
    if (baseUrl?.protocol === "http:" && !isLoopbackHost(baseUrl.hostname)) {
      problems.push(
        `BASE_URL: ${env.BASE_URL} is a public http address, which production refuses: use an https address, or put Atrium behind a TLS proxy and set BASE_URL to its https address`,
      );
    }
  } else if (env.DEVELOPMENT_DEPLOYMENT !== true) {
    // Development mode serves the dev mailbox, a billing sandbox that accepts any token and an identity provider
    // that vouches for any e-mail: it stays on this machine unless someone says, in so many words, that a
    // development deployment faces a network.
    const hint =
      "NODE_ENV is not production, so the dev mailbox, the billing sandbox and the dev identity provider would face the network: set NODE_ENV=production for a real deployment, or DEVELOPMENT_DEPLOYMENT=true for a development deployment others may reach";
    if (env.HOST !== undefined && !isLoopbackHost(env.HOST))
      problems.push(`HOST: ${env.HOST} is not a loopback address; ${hint}`);
    if (env.BASE_URL?.startsWith("https://"))
      problems.push(`BASE_URL: an https address means a public deployment; ${hint}`);
  }
  const database = parseDatabaseUrl(env.DATABASE_URL, env.DATA_DIR ?? "./data");
  if (typeof database === "string") problems.push(`DATABASE_URL: ${database}`);
  const socialProviders: SocialProviderConfig[] = [];
  for (const [id, name, clientId, clientSecret] of [
    ["github", "GitHub", env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET],
    ["google", "Google", env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET],
  ] as const) {
    if (clientId && clientSecret) socialProviders.push({ id, name, clientId, clientSecret } as SocialProviderConfig);
    else if (clientId || clientSecret)
      problems.push(`${id.toUpperCase()}_CLIENT_ID and ${id.toUpperCase()}_CLIENT_SECRET: set both or neither`);
  }
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) {
    socialProviders.push({
      id: "oidc",
      name: env.OIDC_NAME || new URL(env.OIDC_ISSUER).hostname,
      issuer: env.OIDC_ISSUER.replace(/\/+$/, ""),
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
    });
  } else if (env.OIDC_ISSUER || env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET) {
    problems.push(
      "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three (an OpenID Connect provider) or none",
    );
  }
  if (Boolean(env.POLAR_ACCESS_TOKEN) !== Boolean(env.POLAR_SERVER_URL)) {
    problems.push(
      "POLAR_ACCESS_TOKEN and POLAR_SERVER_URL: set both (the real provider) or neither (the built-in sandbox)",
    );
  } else if (env.POLAR_ACCESS_TOKEN && !env.POLAR_WEBHOOK_SECRET?.startsWith("whsec_")) {
    problems.push(
      "POLAR_WEBHOOK_SECRET: required with POLAR_ACCESS_TOKEN: the whsec_… secret of the webhook endpoint registered at the provider",
    );
  }
  // What keeps its state in one process's memory cannot be split across a cluster's workers: a sign-in
  // started on one worker would end on another that never heard of it.
  if ((env.WEB_CONCURRENCY ?? 1) > 1) {
    const requested = source.WEB_CONCURRENCY?.trim() ?? "";
    const processes = /^\d+$/.test(requested)
      ? `WEB_CONCURRENCY=${requested} processes`
      : `WEB_CONCURRENCY=${requested} (${env.WEB_CONCURRENCY}) processes`;
    const byDefault = (value: boolean | undefined) =>
      value === undefined ? " (on by default outside production)" : "";
    if (env.DEV_IDENTITY_PROVIDER ?? !isProduction) {
      problems.push(
        `DEV_IDENTITY_PROVIDER: the development identity provider${byDefault(env.DEV_IDENTITY_PROVIDER)} keeps its sign-in state in one process's memory and cannot run in ${processes}: set DEV_IDENTITY_PROVIDER=false, or WEB_CONCURRENCY=1 for one process`,
      );
    }
    if (env.DEV_DNS_SERVER === true) {
      problems.push(
        `DEV_DNS_SERVER: the development DNS server keeps its records in one process's memory and cannot run in ${processes}: set DEV_DNS_SERVER=false, or WEB_CONCURRENCY=1 for one process`,
      );
    }
    if (env.BILLING_SANDBOX ?? !isProduction) {
      problems.push(
        `BILLING_SANDBOX: the billing sandbox${byDefault(env.BILLING_SANDBOX)} keeps its database file, webhook deliveries and clock in one process and cannot run in ${processes}: set BILLING_SANDBOX=false, or WEB_CONCURRENCY=1 for one process`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const baseUrl = (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
  const dataDir = path.resolve(env.DATA_DIR);
  const authSecret = env.AUTH_SECRET ?? readOrCreateDevelopmentSecret(dataDir);
  // Off in production unless asked for: it lets anyone sign in as whoever they type (docs/decisions/0009).
  if (env.DEV_IDENTITY_PROVIDER ?? !isProduction) {
    socialProviders.push({
      id: "dev",
      name: "Dev identity provider",
      issuer: `${baseUrl}${DEV_IDENTITY_PROVIDER_PATH}`,
      clientId: "atrium",
      // Derived, so it needs no variable and changes with the auth secret.
      clientSecret: createHmac("sha256", authSecret).update("dev-identity-provider-client").digest("base64url"),
    });
  }
  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    webConcurrency: env.WEB_CONCURRENCY,
    baseUrl,
    isHttps: baseUrl.startsWith("https://"),
    dataDir,
    database: database as Config["database"],
    authSecret,
    trustedOrigins: env.TRUSTED_ORIGINS.map((origin) => new URL(origin).origin),
    trustedProxies: env.TRUSTED_PROXIES,
    adminEmails: env.ADMIN_EMAILS.map((email) => email.toLowerCase()),
    adminUserIds: env.ADMIN_USER_IDS,
    mail: {
      from: env.MAIL_FROM,
      smtpUrl: env.SMTP_URL,
      devMailbox: !isProduction && !env.SMTP_URL && (env.DEV_MAILBOX ?? true),
      sendTimeoutMs: env.MAIL_SEND_TIMEOUT_MS,
    },
    billingSandbox: env.BILLING_SANDBOX ?? !isProduction,
    sandbox: { accessToken: env.SANDBOX_ACCESS_TOKEN || undefined },
    redisUrl: env.REDIS_URL,
    billing: billingProvider(env, { baseUrl, dataDir, isProduction }),
    billingCallsPerMinute: env.BILLING_CALLS_PER_MINUTE,
    scimRequestsPerMinute: env.SCIM_REQUESTS_PER_MINUTE,
    apiKeyRequestsPerMinute: env.API_KEY_REQUESTS_PER_MINUTE,
    billingReconcileEveryMs: env.BILLING_RECONCILE_SECONDS * 1_000,
    organizations: {
      limit: env.ORGANIZATION_LIMIT,
      whoMayCreate: env.ALLOW_ORGANIZATION_CREATION,
      isDeletionDisabled: env.DISABLE_ORGANIZATION_DELETION ?? false,
    },
    socialProviders,
    // Off in production unless asked for: it signs anyone in through a SAML provider that trusts its certificate.
    devSamlIdp: env.DEV_SAML_IDP ?? !isProduction,
    audit: { retentionDays: env.AUDIT_RETENTION_DAYS },
    webhooks: {
      allowPrivateTargets: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS ?? !isProduction,
      devReceiver: !isProduction,
      retentionDays: env.WEBHOOK_RETENTION_DAYS,
    },
    // Off in production unless asked for: whoever reaches /dev/dns could prove any domain (docs/decisions/0021).
    dns: {
      servers: env.DNS_SERVERS,
      devServer: env.DEV_DNS_SERVER ?? (!isProduction && (env.WEB_CONCURRENCY ?? 1) === 1),
    },
    logLevel: env.LOG_LEVEL,
    metricsToken: env.METRICS_TOKEN,
    // Production waits for its load balancer; a developer's Ctrl-C has none to wait for.
    shutdown: {
      delayMs: env.SHUTDOWN_DELAY_MS ?? (isProduction ? 5_000 : 0),
      timeoutMs: env.SHUTDOWN_TIMEOUT_MS ?? 30_000,
    },
  };
}

function parseDatabaseUrl(value: string | undefined, dataDir: string): Config["database"] | string {
  if (!value) return { dialect: "sqlite", file: path.resolve(dataDir, "atrium.sqlite") };
  if (/^postgres(ql)?:\/\//.test(value)) return { dialect: "postgres", url: value };
  if (value.startsWith("file:")) return { dialect: "sqlite", file: resolveSqlitePath(value.slice("file:".length)) };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return "use a postgres:// URL, a file: URL or a file path";
  return { dialect: "sqlite", file: resolveSqlitePath(value) };
}

function resolveSqlitePath(file: string): string {
  return file === ":memory:" ? file : path.resolve(file.replace(/^\/\/(?=\/)/, ""));
}

/** Outside production a secret is generated once and kept beside the database, so sessions survive restarts. */
function readOrCreateDevelopmentSecret(dataDir: string, name = "auth-secret"): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
