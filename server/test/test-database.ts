import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import pg from "pg";
import { createApp } from "../app";
import { loadConfig, type Config } from "../config";
import { createLogger, type Logger } from "../logger";
import { createServices, type Services, type ServicesOptions } from "../services";
import { cheapPasswordHashing } from "./password-hashing";
import { POSTGRES_TEMPLATE_ENV } from "./postgres-template";

export type TestDatabase = {
  /** The DATABASE_URL to hand to `loadConfig`: a temp SQLite file, or a fresh PostgreSQL database. */
  url: string;
  dialect: "sqlite" | "postgres";
  dataDir: string;
  drop(): Promise<void>;
};

export type TestApp = {
  config: Config;
  services: Services;
  app: ReturnType<typeof createApp>;
  /** The app's database, for tests that arrange or check rows directly (`services.database.db`). */
  db: Services["database"]["db"];
  dialect: Services["database"]["dialect"];
  database: TestDatabase;
  close(): Promise<void>;
};

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** True when the integration tests run on PostgreSQL (`TEST_DATABASE_URL=postgres://…`). */
export function isPostgresRun(): boolean {
  return POSTGRES_URL.test(process.env.TEST_DATABASE_URL ?? "");
}

/**
 * A database of its own for one test file (or one app variant inside it), so files run in parallel:
 * a SQLite file in a temp folder, or `CREATE DATABASE atrium_test_<random>` on the server that
 * `TEST_DATABASE_URL` names, dropped again by `drop()`. Empty, unless `migrated` asks for a copy of the
 * integration run's migrated template (PostgreSQL only: SQLite migrates a new file in a fraction of that time).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-test-"));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  const serverUrl = process.env.TEST_DATABASE_URL ?? "";
  if (!POSTGRES_URL.test(serverUrl)) {
    return { url: path.join(dataDir, "test.sqlite"), dialect: "sqlite", dataDir, drop: async () => removeDataDir() };
  }
  const name = `atrium_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, async (client) => {
    const template = options.migrated ? process.env[POSTGRES_TEMPLATE_ENV] : undefined;
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
    // A throwaway database need not wait for the disk on every commit; this keeps the suite fast.
    await client.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dialect: "postgres",
    dataDir,
    async drop() {
      await withAdminClient(serverUrl, async (client) => {
        // A closed pool's connections finish closing in the background: wait for them rather than cut them
        // off (a cut-off connection reports an error into whichever test runs next).
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          const { rows } = await client.query<{ count: number }>(
            "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1",
            [name],
          );
          if (rows[0]?.count === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      removeDataDir();
    },
  };
}

async function withAdminClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The environment a test app starts from; `env` overrides or removes (undefined) any variable. */
export function testEnvironment(
  database: TestDatabase,
  env: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    NODE_ENV: "test",
    BASE_URL: "http://localhost:3000",
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    DEV_MAILBOX: "true",
    // Off unless a test signs in through it: it is a whole OpenID Connect provider per app.
    DEV_IDENTITY_PROVIDER: "false",
    // Off too: an SSO test starts its own DNS server and names it in DNS_SERVERS.
    DEV_DNS_SERVER: "false",
    // Off unless a test signs in through it: its first start makes an RSA key.
    DEV_SAML_IDP: "false",
    LOG_LEVEL: "error",
    // The billing tests make one owner start dozens of checkouts and plan changes a minute; the limit's own tests
    // (server/http/app-route-guard.int.test.ts) put the default back.
    BILLING_CALLS_PER_MINUTE: "1000",
    ...env,
  };
}

/**
 * A whole app on a fresh database: `loadConfig` → `createServices` → `createApp`, as `main.ts` wires it.
 * Pass `env` for variants (an https BASE_URL, TRUSTED_PROXIES, REDIS_URL, ADMIN_EMAILS …).
 */
export async function createTestApp(
  options: {
    env?: Record<string, string | undefined>;
    logger?: Logger;
    database?: TestDatabase;
    listen?: boolean;
    /** Sees the SQL of every statement the app issues (the query-budget tests count them). */
    onQuery?: (sql: string) => void;
    /** The read cache's clock and poll: `{ poll: false, now }` to read the change feed and move time on by hand. */
    readCache?: ServicesOptions["readCache"];
    /** The API-key limiter's clock and sync: `{ background: false, now }` to sync and move time on by hand. */
    apiKeyRateLimit?: ServicesOptions["apiKeyRateLimit"];
    /** The service providers the development SAML IdP answers (`DEV_SAML_IDP: "true"`). */
    samlServiceProviders?: ServicesOptions["samlServiceProviders"];
    /** The webhook worker's clock, retry schedule, timeout and failure span. */
    webhooks?: ServicesOptions["webhooks"];
  } = {},
): Promise<TestApp> {
  // A database passed in (a second instance of the same deployment) belongs to its creator, who drops it.
  const isShared = options.database !== undefined;
  const database = options.database ?? (await createTestDatabase({ migrated: true }));
  const listener = options.listen ? await startListener() : undefined;
  try {
    const config = loadConfig(
      testEnvironment(database, { ...options.env, ...(listener ? { BASE_URL: listener.url } : {}) }),
    );
    const logger = options.logger ?? createLogger("silent");
    // A long poll: tests deliver mail with `services.worker.drain()`, never by waiting for a timer.
    const { onQuery, readCache, apiKeyRateLimit } = options;
    const services = await createServices(config, logger, {
      pollMs: 60_000,
      onQuery,
      readCache,
      apiKeyRateLimit,
      passwordHashing: cheapPasswordHashing,
      samlServiceProviders: options.samlServiceProviders,
      webhooks: options.webhooks,
    });
    const app = createApp({ ...services, config, logger });
    listener?.serve(app);
    return {
      config,
      services,
      app,
      db: services.database.db,
      dialect: services.database.dialect,
      database,
      async close() {
        await listener?.close();
        await services.close();
        if (!isShared) await database.drop();
      },
    };
  } catch (error) {
    await listener?.close();
    if (!isShared) await database.drop();
    throw error;
  }
}

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * A real HTTP listener on 127.0.0.1 for an app that calls itself: the billing provider client talks to the
 * sandbox mounted in the same app, and the sandbox delivers webhooks to it. It listens first, so the app can be
 * configured with its address, and serves the app once it exists.
 */
async function startListener(): Promise<{ url: string; serve(app: { fetch: Fetch }): void; close(): Promise<void> }> {
  let app: { fetch: Fetch } | undefined;
  const server = serve({
    fetch: (request, env) => (app ? app.fetch(request, env) : new Response("starting", { status: 503 })),
    port: 0,
    hostname: "127.0.0.1",
  });
  if (!server.listening) await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    serve(created) {
      app = created;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of the app's own provider client would hold the close open.
        if ("closeAllConnections" in server) server.closeAllConnections();
      }),
  };
}
