import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../common/error-codes";
import type { DatabaseHandle } from "../db/database";
import { toIsoString } from "../db/database";
import type { Database } from "../db/schema";
import { withTimeout } from "../timeout";
import type { AppEnv } from "./app-env";
import { Gauge, Registry } from "prom-client";
import type { Logger } from "../logger";
import { errorBody, errorResponse } from "./errors";
import { PROMETHEUS_CONTENT_TYPE, type Metrics } from "./metrics";

/** Whether this process has begun to shut down (server/main.ts): readiness is false from that moment on. */
export type Readiness = { isShuttingDown(): boolean };

export type OperationsDeps = {
  database: Pick<DatabaseHandle, "db">;
  metrics: Metrics;
  logger: Logger;
  /** The bearer token /metrics asks for (METRICS_TOKEN); without one /metrics is not published. */
  metricsToken?: string;
  /** The bounded database probe (createDatabaseProbe). */
  isDatabaseDown(): Promise<boolean>;
  readiness?: Readiness;
};

/** How long a scrape waits for the backlog counts before answering without them. */
const BACKLOG_TIMEOUT_MS = 2_000;

/**
 * What an orchestrator and a monitoring system ask of a process:
 * - `/livez`: the process runs and serves (no dependency is checked: a database outage must not get every
 *   process restarted);
 * - `/readyz`: it should be sent traffic: not shutting down, and the database answers; 503 names what is not;
 * - `/healthz`: the older combined check (the database answers), kept as it was;
 * - `/metrics`: Prometheus metrics, for the bearer of METRICS_TOKEN only.
 */
export function operationsRoutes(deps: OperationsDeps) {
  const app = new Hono<AppEnv>();
  const expectedToken = deps.metricsToken === undefined ? undefined : digest(deps.metricsToken);

  app.get("/livez", (c) => c.json({ status: "ok" }));

  app.get("/readyz", async (c) => {
    if (deps.readiness?.isShuttingDown()) {
      return c.json({ status: "unavailable", ...errorBody(ERROR_CODES.SERVICE_UNAVAILABLE, "The server is shutting down"), notReady: ["shutdown"] }, 503);
    }
    if (await deps.isDatabaseDown()) {
      return c.json({ status: "unavailable", ...errorBody(ERROR_CODES.SERVICE_UNAVAILABLE, "The database does not answer"), notReady: ["database"] }, 503);
    }
    return c.json({ status: "ready" });
  });

  // The same bounded probe as the error handler's, so a database that hangs cannot hang the health check.
  app.get("/healthz", async (c) =>
    (await deps.isDatabaseDown())
      ? c.json({ status: "unavailable", ...errorBody(ERROR_CODES.SERVICE_UNAVAILABLE, "The database does not answer") }, 503)
      : c.json({ status: "ok" }),
  );

  app.get("/metrics", async (c) => {
    if (expectedToken === undefined) return errorResponse(c, ERROR_CODES.NOT_FOUND, "Not found");
    const bearer = /^Bearer (.+)$/.exec(c.req.header("Authorization") ?? "")?.[1];
    if (bearer === undefined || !timingSafeEqual(digest(bearer), expectedToken)) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      return errorResponse(c, ERROR_CODES.UNAUTHORIZED, "The metrics need the bearer token set in METRICS_TOKEN");
    }
    // The backlog is read once, by the process that answers (every process would read the same numbers).
    const [processes, backlog] = await Promise.allSettled([deps.metrics.render(), backlogMetrics(deps.database.db)]);
    if (processes.status === "rejected") {
      deps.logger.warn("metrics: the cluster's metrics could not be gathered", { error: processes.reason });
      return errorResponse(c, ERROR_CODES.SERVICE_UNAVAILABLE, "The metrics of every process could not be gathered");
    }
    const text = `${processes.value}\n${backlog.status === "fulfilled" ? backlog.value : ""}`;
    return c.body(text, 200, { "Content-Type": PROMETHEUS_CONTENT_TYPE, "Cache-Control": "no-store" });
  });

  return app;
}

/** Hashed first, so the constant-time comparison compares equal lengths whatever the token's length. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/** Seconds since `oldest` (a timestamp as either dialect returns it), 0 when there is none. */
function ageSeconds(oldest: Date | string | null | undefined, now: number): number {
  const iso = toIsoString(oldest);
  return iso === null ? 0 : Math.max(0, (now - Date.parse(iso)) / 1000);
}

const BACKLOG_HELP = {
  atrium_database_up: "Whether the database answered this scrape's backlog counts (1) or not (0).",
  atrium_mail_outbox_pending: "Mails queued and not yet sent (pending, or being sent).",
  atrium_mail_outbox_oldest_pending_age_seconds: "Age of the oldest mail not yet sent; 0 when none waits.",
  atrium_billing_webhook_events: "Billing webhook events received and not applied, by status: pending (to apply), failed (given up).",
  atrium_billing_webhook_oldest_pending_age_seconds: "Age of the oldest billing webhook event waiting to be applied; 0 when none waits.",
  atrium_billing_usage_events: "Usage events not yet reported to the billing provider, by status: pending (to send), failed (given up).",
  atrium_billing_usage_oldest_pending_age_seconds: "Age of the oldest usage event waiting to be reported; 0 when none waits.",
} as const;

/**
 * The queues' backlog, read at scrape time from the database (counts on the status indexes): mail waiting to be
 * sent, billing webhook events waiting to be applied or given up on, usage events waiting to be reported. Every
 * instance reports the same numbers (the queues are shared). When the database does not answer in time, only
 * `atrium_database_up 0` is reported.
 */
async function backlogMetrics(db: Kysely<Database>): Promise<string> {
  const now = Date.now();
  const registry = new Registry();
  const gauge = (name: keyof typeof BACKLOG_HELP, labelNames: string[] = []) =>
    new Gauge({ name, help: BACKLOG_HELP[name], labelNames, registers: [registry] });
  const databaseUp = gauge("atrium_database_up");
  const read = Promise.all([
    db
      .selectFrom("mail_outbox")
      .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.min("created_at").as("oldest")])
      .where("status", "in", ["pending", "sending"])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("billing_webhook_event")
      .select((eb) => ["status", eb.fn.countAll<number | string>().as("count"), eb.fn.min("received_at").as("oldest")])
      .where("status", "in", ["pending", "failed"])
      .groupBy("status")
      .execute(),
    db
      .selectFrom("billing_usage_event")
      .select((eb) => ["status", eb.fn.countAll<number | string>().as("count"), eb.fn.min("created_at").as("oldest")])
      .where("status", "in", ["pending", "failed"])
      .groupBy("status")
      .execute(),
  ]);
  try {
    const [mail, webhooks, usage] = await withTimeout(BACKLOG_TIMEOUT_MS, "timed out", () => read);
    type StatusRow = { status: string; count: number | string; oldest: Date | string | null };
    const byStatus = (rows: StatusRow[], status: string) => rows.find((row) => row.status === status);
    const countOf = (rows: StatusRow[], status: string) => Number(byStatus(rows, status)?.count ?? 0);
    databaseUp.set(1);
    gauge("atrium_mail_outbox_pending").set(Number(mail.count));
    gauge("atrium_mail_outbox_oldest_pending_age_seconds").set(ageSeconds(mail.oldest, now));
    const webhookEvents = gauge("atrium_billing_webhook_events", ["status"]);
    for (const status of ["pending", "failed"]) webhookEvents.set({ status }, countOf(webhooks, status));
    gauge("atrium_billing_webhook_oldest_pending_age_seconds").set(ageSeconds(byStatus(webhooks, "pending")?.oldest, now));
    const usageEvents = gauge("atrium_billing_usage_events", ["status"]);
    for (const status of ["pending", "failed"]) usageEvents.set({ status }, countOf(usage, status));
    gauge("atrium_billing_usage_oldest_pending_age_seconds").set(ageSeconds(byStatus(usage, "pending")?.oldest, now));
  } catch {
    read.catch(() => undefined);
    databaseUp.set(0);
  }
  return registry.metrics();
}
