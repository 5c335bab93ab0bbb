import path from "node:path";
import { Redis } from "ioredis";
import { createBillingSandbox, type BillingSandbox } from "../billing-sandbox";
import { createAuth, type Auth } from "./auth/auth";
import { createRedisRateLimitStore } from "./auth/rate-limit-store";
import type { Config } from "./config";
import { openDatabase, type DatabaseHandle } from "./db/database";
import { migrateToLatest } from "./db/migrate";
import { startOutboxWorker, type OutboxWorker } from "./jobs/outbox-worker";
import type { Logger } from "./logger";
import { createMailQueue, createMailTransport } from "./modules/mail";

export type Services = {
  database: DatabaseHandle;
  auth: Auth;
  worker: OutboxWorker;
  /** The offline billing provider, mounted under /sandbox/polar (on by default outside production). */
  sandbox?: BillingSandbox;
  close(): Promise<void>;
};

/** Opens and wires everything the app needs, in order; `close` undoes it in reverse. */
export async function createServices(config: Config, logger: Logger, options: { pollMs?: number } = {}): Promise<Services> {
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }) : undefined;
  const transport = createMailTransport(database.db, { smtpUrl: config.mail.smtpUrl, from: config.mail.from });
  const worker = startOutboxWorker({ db: database.db, transport, logger, pollMs: options.pollMs });
  const mail = createMailQueue(database.db, () => worker.nudge());
  const auth = createAuth({
    config,
    db: database.db,
    dialect: database.dialect,
    mail,
    logger,
    rateLimitStore: redis ? createRedisRateLimitStore(redis) : undefined,
  });
  const sandbox = config.billingSandbox
    ? createBillingSandbox({
        dataFile:
          config.database.dialect === "sqlite" && config.database.file === ":memory:" ? ":memory:" : path.join(config.dataDir, "billing-sandbox.sqlite"),
        publicUrl: `${config.baseUrl}/sandbox/polar`,
        accessToken: config.sandbox.accessToken,
        webhookEndpoint: config.polar.webhookSecret ? { url: `${config.baseUrl}/api/billing/webhooks`, secret: config.polar.webhookSecret } : undefined,
        logger,
      })
    : undefined;
  return {
    database,
    auth,
    worker,
    sandbox,
    async close() {
      await sandbox?.close();
      await worker.stop();
      redis?.disconnect();
      await database.close();
    },
  };
}
