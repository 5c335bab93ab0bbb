import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../common/error-codes";
import type { DatabaseHandle } from "../db/database";
import { toIsoString } from "../db/database";
import type { Database } from "../db/schema";
import { withTimeout } from "../timeout";
import type { AppEnv } from "./app-env";
import { errorBody, errorResponse } from "./errors";
import { PROMETHEUS_CONTENT_TYPE, renderPrometheus, type MetricFamily, type Metrics } from "./metrics";

/** Whether this process has begun to shut down (server/main.ts): readiness is false from that moment on. */
export type Readiness = { isShuttingDown(): boolean };

export type OperationsDeps = {
  database: Pick<DatabaseHandle, "db" | "poolStats">;
  metrics: Metrics;
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
    const families = [...deps.metrics.families(), ...(await backlogFamilies(deps.database.db)), ...poolFamilies(deps.database), ...processFamilies()];
    return c.body(renderPrometheus(families), 200, { "Content-Type": PROMETHEUS_CONTENT_TYPE, "Cache-Control": "no-store" });
  });

  return app;
}

/** Hashed first, so the constant-time comparison compares equal lengths whatever the token's length. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

function gauge(name: string, help: string, samples: MetricFamily["samples"]): MetricFamily {
  return { name, help, type: "gauge", samples };
}

/** Seconds since `oldest` (a timestamp as either dialect returns it), 0 when there is none. */
function ageSeconds(oldest: Date | string | null | undefined, now: number): number {
  const iso = toIsoString(oldest);
  return iso === null ? 0 : Math.max(0, (now - Date.parse(iso)) / 1000);
}

/**
 * The queues' backlog, read at scrape time from the database (counts on the status indexes): mail waiting to be
 * sent, billing webhook events waiting to be applied or given up on, usage events waiting to be reported. Every
 * instance reports the same numbers (the queues are shared). When the database does not answer in time, only
 * `atrium_database_up 0` is reported.
 */
async function backlogFamilies(db: Kysely<Database>): Promise<MetricFamily[]> {
  const now = Date.now();
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
  const databaseUp = (up: boolean) =>
    gauge("atrium_database_up", "Whether the database answered this scrape's backlog counts (1) or not (0).", [{ value: up ? 1 : 0 }]);
  try {
    const [mail, webhooks, usage] = await withTimeout(BACKLOG_TIMEOUT_MS, "timed out", () => read);
    type StatusRow = { status: string; count: number | string; oldest: Date | string | null };
    const byStatus = (rows: StatusRow[], status: string) => rows.find((row) => row.status === status);
    const countOf = (rows: StatusRow[], status: string) => Number(byStatus(rows, status)?.count ?? 0);
    return [
      databaseUp(true),
      gauge("atrium_mail_outbox_pending", "Mails queued and not yet sent (pending, or being sent).", [{ value: Number(mail.count) }]),
      gauge("atrium_mail_outbox_oldest_pending_age_seconds", "Age of the oldest mail not yet sent; 0 when none waits.", [
        { value: ageSeconds(mail.oldest, now) },
      ]),
      gauge("atrium_billing_webhook_events", "Billing webhook events received and not applied, by status: pending (to apply), failed (given up).", [
        { labels: { status: "pending" }, value: countOf(webhooks, "pending") },
        { labels: { status: "failed" }, value: countOf(webhooks, "failed") },
      ]),
      gauge("atrium_billing_webhook_oldest_pending_age_seconds", "Age of the oldest billing webhook event waiting to be applied; 0 when none waits.", [
        { value: ageSeconds(byStatus(webhooks, "pending")?.oldest, now) },
      ]),
      gauge("atrium_billing_usage_events", "Usage events not yet reported to the billing provider, by status: pending (to send), failed (given up).", [
        { labels: { status: "pending" }, value: countOf(usage, "pending") },
        { labels: { status: "failed" }, value: countOf(usage, "failed") },
      ]),
      gauge("atrium_billing_usage_oldest_pending_age_seconds", "Age of the oldest usage event waiting to be reported; 0 when none waits.", [
        { value: ageSeconds(byStatus(usage, "pending")?.oldest, now) },
      ]),
    ];
  } catch {
    read.catch(() => undefined);
    return [databaseUp(false)];
  }
}

/** The PostgreSQL pool's connections and waiting queries; SQLite has no pool and reports none. */
function poolFamilies(database: Pick<DatabaseHandle, "poolStats">): MetricFamily[] {
  const stats = database.poolStats?.();
  if (!stats) return [];
  return [
    gauge("atrium_database_pool_connections", "Connections of this process's PostgreSQL pool, by state.", [
      { labels: { state: "idle" }, value: stats.idle },
      { labels: { state: "busy" }, value: stats.total - stats.idle },
    ]),
    gauge("atrium_database_pool_waiting_queries", "Queries of this process waiting for a free pool connection.", [{ value: stats.waiting }]),
  ];
}

function processFamilies(): MetricFamily[] {
  return [
    gauge("process_resident_memory_bytes", "Resident memory of this process.", [{ value: process.memoryUsage.rss() }]),
    gauge("process_uptime_seconds", "Seconds since this process started.", [{ value: process.uptime() }]),
  ];
}
