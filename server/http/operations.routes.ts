import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { ERROR_CODES } from "../../common/error-codes";
import type { DatabaseHandle } from "../db/database";
import type { AppEnv } from "./app-env";
import { errorBody, errorResponse } from "./errors";
import { gauge, PROMETHEUS_CONTENT_TYPE, renderPrometheus, type BacklogMetrics, type MetricFamily, type Metrics } from "./metrics";

/** Whether this process has begun to shut down (server/main.ts): readiness is false from that moment on. */
export type Readiness = { isShuttingDown(): boolean };

export type OperationsDeps = {
  database: Pick<DatabaseHandle, "poolStats">;
  metrics: Metrics;
  /** The queues' backlogs, registered by the modules that own them (mail, billing). */
  backlogs?: readonly BacklogMetrics[];
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
    const backlog = await backlogFamilies(deps.backlogs ?? []);
    const families = [...deps.metrics.families(), ...backlog, ...poolFamilies(deps.database), ...processFamilies()];
    return c.body(renderPrometheus(families), 200, { "Content-Type": PROMETHEUS_CONTENT_TYPE, "Cache-Control": "no-store" });
  });

  return app;
}

/** Hashed first, so the constant-time comparison compares equal lengths whatever the token's length. */
function digest(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/**
 * The queues' backlog, read at scrape time from the database by the modules that own the queues (mail waiting to be
 * sent, billing webhook and usage events waiting to be applied or reported). Every instance reports the same numbers
 * (the queues are shared). When the database does not answer in time, only `atrium_database_up 0` is reported.
 */
async function backlogFamilies(backlogs: readonly BacklogMetrics[]): Promise<MetricFamily[]> {
  const now = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), BACKLOG_TIMEOUT_MS)));
  const read = Promise.all(backlogs.map((backlog) => backlog(now)));
  const databaseUp = (up: boolean) =>
    gauge("atrium_database_up", "Whether the database answered this scrape's backlog counts (1) or not (0).", [{ value: up ? 1 : 0 }]);
  try {
    const families = await Promise.race([read, timeout]);
    return [databaseUp(true), ...families.flat()];
  } catch {
    read.catch(() => undefined);
    return [databaseUp(false)];
  } finally {
    clearTimeout(timer);
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
