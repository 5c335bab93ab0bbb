import { createHmac } from "node:crypto";
import { once } from "node:events";
import path from "node:path";
import type { Redis } from "ioredis";
import { createBillingSandbox, type BillingSandbox } from "../billing-sandbox";
import { createAuth, type Auth } from "./auth/auth";
import { RATE_LIMIT_RULES } from "./auth/rate-limit";
import type { PasswordHashing } from "./auth/password-hashing";
import {
  createDatabaseRateLimitStore,
  createRateLimitStoreHealth,
  createRedisRateLimitStore,
  failOpen,
  type RateLimitStore,
  type RateLimitStoreHealth,
} from "./http/rate-limit-store";
import {
  createSyncedRateLimiter,
  type SyncedRateLimiter,
  type SyncedRateLimiterOptions,
} from "./http/synced-rate-limit";
import type { Config, SocialProviderConfig } from "./config";
import { openDatabase, type DatabaseHandle } from "./db/database";
import { createReadCache, type ReadCache, type ReadCacheOptions } from "./db/read-cache";
import { migrateToLatest } from "./db/migrate";
import { startAuditRetention } from "./jobs/audit-retention";
import { startBillingWorker, type BillingWorker } from "./jobs/billing-worker";
import { startOutboxWorker, type OutboxWorker } from "./jobs/outbox-worker";
import { startWebhookRetention } from "./jobs/webhook-retention";
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from "./jobs/webhook-worker";
import { idlePollingLoop, type PollingLoop } from "./jobs/polling-loop";
import type { Logger } from "./logger";
import { createBilling, createProviderClient, type Billing } from "./modules/billing";
import { createDevIdentityProvider, type DevIdentityProvider } from "./modules/dev-identity";
import {
  createDevSamlIdentityProvider,
  type DevSamlIdentityProvider,
  type ServiceProviderLookup,
} from "./modules/dev-saml";
import { createMailQueue, createMailTransport, type MailQueue } from "./modules/mail";
import { createTxtLookup, findDevelopmentServiceProvider, startDevDnsServer, type DevDnsServer } from "./modules/sso";

export type Services = {
  database: DatabaseHandle;
  auth: Auth;
  worker: OutboxWorker;
  /** The mail outbox, which better-auth's notices and the app's own are queued in. */
  mail: MailQueue;
  billing: Billing;
  billingWorker: BillingWorker;
  /** Delivers the organizations' outbound webhooks (tests drain it). */
  webhookWorker: WebhookWorker;
  /** The hourly audit log purge (tests drain it before they arrange old entries). */
  auditRetention: PollingLoop;
  /** The hourly purge of old webhook deliveries (tests drain it). */
  webhookRetention: PollingLoop;
  readCache: ReadCache;
  /** The rate-limit counters of better-auth and the app (the database table, or Redis), failing open. */
  rateLimitStore: RateLimitStore;
  /** Each organization API key's limit, counted in process and shared through the same store (ADR 0027). */
  apiKeyRateLimiter: SyncedRateLimiter;
  /** The offline billing provider, mounted under /sandbox/polar (on by default outside production). */
  sandbox?: BillingSandbox;
  /** The development identity provider, mounted under its issuer's path (on by default outside production). */
  devIdentity?: DevIdentityProvider;
  /** The development SAML identity provider, mounted under /dev/saml (on by default outside production). */
  devSaml?: DevSamlIdentityProvider;
  /** The development DNS server SSO domains are verified through offline (on by default outside production). */
  devDns?: DevDnsServer;
  close(): Promise<void>;
};

export type ServicesOptions = {
  /** How often the background jobs poll (tests make it long and drain the workers themselves). */
  pollMs?: number;
  /**
   * Whether this process runs the background jobs (mail outbox, billing and webhook workers, purges); true unless a
   * cluster (server/cluster.ts) gives them to another worker. Without them their loops are idle: a nudge does
   * nothing, and the jobs worker's next poll picks up the work.
   */
  runJobs?: boolean;
  /** Whether to apply pending migrations; a cluster's primary has applied them before forking its workers. */
  migrate?: boolean;
  /** Sees the SQL of every statement (the query-budget tests count them). */
  onQuery?: (sql: string) => void;
  /** The read cache's clock and background poll (tests that drive the cache turn the poll off). */
  readCache?: Omit<ReadCacheOptions, "logger">;
  /** The API-key limiter's clock and background sync (tests that drive it turn the sync off). */
  apiKeyRateLimit?: Pick<SyncedRateLimiterOptions, "now" | "background">;
  /**
   * Password hashing other than better-auth's scrypt: only the integration tests' harness passes one (no setting
   * reaches it), so their hundreds of sign-ups do not spend most of the run hashing.
   */
  passwordHashing?: PasswordHashing;
  /** The service providers the development SAML IdP answers (the app's registered SAML providers otherwise). */
  samlServiceProviders?: ServiceProviderLookup;
  /**
   * The webhook worker's clock, retry schedule, timeout and failure span (tests shorten them); the clock is the
   * delivery history purge's too.
   */
  webhooks?: Pick<WebhookWorkerOptions, "now" | "retryScheduleMs" | "timeoutMs" | "disableAfterFailingMs">;
};

/** Opens and wires everything the app needs, in order; `close` undoes it in reverse. */
export async function createServices(config: Config, logger: Logger, options: ServicesOptions = {}): Promise<Services> {
  const { runJobs = true, migrate = true } = options;
  const database = openDatabase(config.database, {
    onQuery: options.onQuery,
    sharedFile: config.webConcurrency > 1,
  });
  if (migrate) await migrateToLatest(database.db, { authSecret: config.authSecret });
  const readCache = createReadCache(database.db, { ...options.readCache, logger });
  const rateLimitHealth = createRateLimitStoreHealth(logger, { store: config.redisUrl ? "redis" : "database" });
  const redis = config.redisUrl ? await connectRateLimitRedis(config.redisUrl, rateLimitHealth) : undefined;
  const rateLimitStore = redis
    ? createRedisRateLimitStore(redis)
    : createDatabaseRateLimitStore(database.db, {
        longestWindowSeconds: Math.max(...Object.values(RATE_LIMIT_RULES).map((rule) => rule.window)),
        logger,
      });
  const apiKeyRateLimiter = createSyncedRateLimiter({
    counters: rateLimitStore,
    max: config.apiKeyRequestsPerMinute,
    windowSeconds: 60,
    prefix: "app:api-key:",
    logger,
    ...options.apiKeyRateLimit,
  });
  const transport = createMailTransport(database.db, { smtpUrl: config.mail.smtpUrl, from: config.mail.from });
  const worker = runJobs
    ? startOutboxWorker({
        db: database.db,
        transport,
        logger,
        pollMs: options.pollMs,
        sendTimeoutMs: config.mail.sendTimeoutMs,
      })
    : idlePollingLoop;
  const mail = createMailQueue(database.db, () => worker.nudge());
  const billing = createBillingService(config, database.db, logger, () => billingWorker.nudge());
  const billingWorker = runJobs
    ? startBillingWorker({
        db: database.db,
        billing,
        logger,
        pollMs: options.pollMs,
        reconcileEveryMs: config.billingReconcileEveryMs,
      })
    : idlePollingLoop;
  const webhookWorker = runJobs
    ? startWebhookWorker({
        db: database.db,
        mail,
        logger,
        policy: { allowPrivate: config.webhooks.allowPrivateTargets },
        baseUrl: config.baseUrl,
        pollMs: options.pollMs,
        ...options.webhooks,
      })
    : idlePollingLoop;
  const auditRetention = runJobs
    ? startAuditRetention({ db: database.db, logger, retentionDays: config.audit.retentionDays })
    : idlePollingLoop;
  const webhookRetention = runJobs
    ? startWebhookRetention({
        db: database.db,
        logger,
        retentionDays: config.webhooks.retentionDays,
        now: options.webhooks?.now,
      })
    : idlePollingLoop;
  const sharedRateLimitStore = failOpen(rateLimitStore, rateLimitHealth);
  const devDns = config.dns.devServer ? await startDevDnsServer() : undefined;
  if (devDns && config.isProduction) {
    logger.warn("the development DNS server is on: whoever reaches /dev/dns can prove any domain for SSO", {
      address: devDns.address,
    });
  }
  // DNS_SERVERS first; otherwise the development DNS server when it runs; otherwise the system's resolvers.
  const dnsServers = config.dns.servers.length > 0 ? config.dns.servers : devDns ? [devDns.address] : [];
  const auth = createAuth({
    config,
    db: database.db,
    dialect: database.dialect,
    mail,
    logger,
    rateLimitStore: sharedRateLimitStore,
    billing,
    dnsLookup: createTxtLookup(dnsServers),
    passwordHashing: options.passwordHashing,
  });
  const sandbox = config.billingSandbox
    ? createBillingSandbox({
        dataFile:
          config.database.dialect === "sqlite" && config.database.file === ":memory:"
            ? ":memory:"
            : path.join(config.dataDir, "billing-sandbox.sqlite"),
        publicUrl: `${config.baseUrl}/sandbox/polar`,
        accessToken: config.sandbox.accessToken,
        webhookEndpoint:
          config.billing?.provider === "sandbox"
            ? { url: `${config.baseUrl}/api/billing/webhooks`, secret: config.billing.webhookSecret }
            : undefined,
        logger,
      })
    : undefined;
  const dev = config.socialProviders.find(
    (provider): provider is Extract<SocialProviderConfig, { id: "dev" }> => provider.id === "dev",
  );
  const devIdentity = dev
    ? await createDevIdentityProvider({
        issuer: dev.issuer,
        client: {
          clientId: dev.clientId,
          clientSecret: dev.clientSecret,
          redirectUri: `${config.baseUrl}/api/auth/callback/dev`,
        },
        ssoClient: {
          clientId: DEV_IDENTITY_SSO_CLIENT_ID,
          // Derived, as the sign-in client's: no variable, and it changes with the auth secret.
          clientSecret: createHmac("sha256", config.authSecret)
            .update("dev-identity-provider-sso-client")
            .digest("base64url"),
          callbackPrefix: `${config.baseUrl}/api/auth/sso/callback/`,
        },
        signInUrl: `${config.baseUrl}/sign-in`,
        cookieSecret: createHmac("sha256", config.authSecret)
          .update("dev-identity-provider-cookies")
          .digest("base64url"),
        logger,
        isProduction: config.isProduction,
      })
    : undefined;
  const devSaml = config.devSamlIdp
    ? await createDevSamlIdentityProvider({
        baseUrl: config.baseUrl,
        dataDir: config.dataDir,
        // The SAML providers registered in this app against the development IdP.
        findServiceProvider:
          options.samlServiceProviders ??
          ((request) => findDevelopmentServiceProvider(database.db, { baseUrl: config.baseUrl, ...request })),
        signInUrl: `${config.baseUrl}/sign-in`,
        logger,
        isProduction: config.isProduction,
      })
    : undefined;
  return {
    database,
    auth,
    worker,
    mail,
    billing,
    billingWorker,
    webhookWorker,
    auditRetention,
    webhookRetention,
    readCache,
    rateLimitStore: sharedRateLimitStore,
    apiKeyRateLimiter,
    sandbox,
    devIdentity,
    devSaml,
    devDns,
    async close() {
      await devDns?.close();
      await sandbox?.close();
      await readCache.stop();
      // What this instance counted goes to the store, so a restarted one starts from it.
      await apiKeyRateLimiter.stop();
      await auditRetention.stop();
      await webhookRetention.stop();
      await billingWorker.stop();
      await webhookWorker.stop();
      await worker.stop();
      redis?.disconnect();
      await database.close();
    },
  };
}

/** The development identity provider's client for organizations' SSO providers (docs/sso.md). */
export const DEV_IDENTITY_SSO_CLIENT_ID = "atrium-sso";

/** The billing module on the configured provider (`config.billing`; none turns billing and its plan limits off). */
export function createBillingService(
  config: Pick<Config, "billing" | "baseUrl">,
  db: DatabaseHandle["db"],
  logger: Logger,
  nudge: () => void,
): Billing {
  return createBilling({
    db,
    provider: config.billing ? createProviderClient(config.billing) : null,
    baseUrl: config.baseUrl,
    logger,
    nudge,
  });
}

/** Longest a rate-limit count may hold up a request when Redis accepts connections but does not answer. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * The Redis client of the rate-limit counters. While Redis is down a request must neither wait for it (the
 * store fails open instead) nor have its count replayed later:
 * - `enableOfflineQueue: false`: a command issued while disconnected fails at once, instead of waiting in a
 *   queue that is sent, stale, on reconnection;
 * - `maxRetriesPerRequest: 0`: a command in flight when the connection drops fails at once, instead of being
 *   resent after the reconnection;
 * - `commandTimeout`: a Redis that is connected but does not answer (paused, overloaded, a half-open
 *   connection) fails the command after this, not never.
 * The default `retryStrategy` reconnects forever, backing off to one attempt every 2 s, so counting resumes
 * by itself when Redis is back.
 */
async function connectRateLimitRedis(url: string, health: RateLimitStoreHealth): Promise<Redis> {
  // Loaded only when Redis is configured: an instance without it never holds the client in memory.
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  // Every failed reconnection attempt emits "error": unhandled, ioredis writes each to stderr; the health log
  // reports an outage once and then at most once a minute.
  redis.on("error", (error: unknown) => health.failed(error, "connection"));
  redis.on("ready", () => health.recovered());
  // Without an offline queue nothing is counted before the connection is ready: wait for it. When Redis is
  // down at start the first error ends the wait, and the server starts with the limiter open while it reconnects.
  await once(redis, "ready").catch(() => undefined);
  return redis;
}
