import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import { ERROR_CODES } from "../../common/error-codes";
import { withTimeout } from "../timeout";
import type { AppEnv } from "./app-env";
import { Gauge, Registry } from "prom-client";
import type { Logger } from "../logger";
import { errorBody, errorResponse } from "./errors";
import { PROMETHEUS_CONTENT_TYPE, type BacklogMetrics, type Metrics } from "./metrics";

/** Whether this process has begun to shut down (server/main.ts): readiness is false from that moment on. */
export type Readiness = { isShuttingDown(): boolean };

export type OperationsDeps = {
  metrics: Metrics;
  logger: Logger;
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
      return c.json(
        {
          status: "unavailable",
          ...errorBody(ERROR_CODES.SERVICE_UNAVAILABLE, "The server is shutting down"),
          notReady: ["shutdown"],
        },
        503,
      );
    }
    if (await deps.isDatabaseDown()) {
      return c.json(
        {
          status: "unavailable",
          ...errorBody(ERROR_CODES.SERVICE_UNAVAILABLE, "The database does not answer"),
          notReady: ["database"],
        },
        503,
      );
    }
    return c.json({ status: "ready" });
  });

  // The same bounded probe as the error handler's, so a database that hangs cannot hang the health check.
  app.get("/healthz", async (c) =>
    (await deps.isDatabaseDown())
      ? c.json(
          { status: "unavailable", ...errorBody(ERROR_CODES.SERVICE_UNAVAILABLE, "The database does not answer") },
          503,
        )
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
    const [processes, backlog] = await Promise.allSettled([deps.metrics.render(), backlogMetrics(deps.backlogs ?? [])]);
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

/**
 * The queues' backlog, read at scrape time from the database by the modules that own the queues (mail waiting to be
 * sent, billing webhook and usage events waiting to be applied or reported). Every instance reports the same numbers
 * (the queues are shared). When the database does not answer in time, only `atrium_database_up 0` is reported.
 */
async function backlogMetrics(backlogs: readonly BacklogMetrics[]): Promise<string> {
  const now = Date.now();
  const registry = new Registry();
  const databaseUp = new Gauge({
    name: "atrium_database_up",
    help: "Whether the database answered this scrape's backlog counts (1) or not (0).",
    registers: [registry],
  });
  const read = Promise.all(backlogs.map((backlog) => backlog(now)));
  try {
    const readings = (await withTimeout(BACKLOG_TIMEOUT_MS, "timed out", () => read)).flat();
    databaseUp.set(1);
    for (const { name, help, samples } of readings) {
      const labelNames = Object.keys(samples[0]?.labels ?? {});
      const gauge = new Gauge({ name, help, labelNames, registers: [registry] });
      for (const sample of samples) gauge.set(sample.labels ?? {}, sample.value);
    }
  } catch {
    read.catch(() => undefined);
    databaseUp.set(0);
  }
  return registry.metrics();
}
