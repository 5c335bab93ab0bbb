import cluster from "node:cluster";
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry } from "prom-client";
import { toIsoString } from "../db/database";

/**
 * The process's own metrics, kept by prom-client. Counting a request is a label lookup and a few increments, as
 * cheap as it can be on the path every request takes. In a cluster (WEB_CONCURRENCY > 1) each worker counts its own
 * requests and a scrape, whichever worker it reaches, answers every worker's counts summed by the primary
 * (prom-client's AggregatorRegistry, over the cluster's IPC channel): one scrape covers the whole port.
 */

/** Upper bounds of the request duration histogram, in seconds: from a replayed read to a slow scrypt sign-in. */
export const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The content type of the text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** Methods counted under their own name; anything else a client invents is counted as OTHER (bounded labels). */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A PostgreSQL pool's counts (server/db/database.ts); SQLite has no pool. */
export type PoolStats = { total: number; idle: number; waiting: number };

export type Metrics = {
  /** Counts one answered request: `route` is the pattern that answered it, never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Counts one request refused with 429 by the rate-limit rule `rule`. */
  countRateLimitRejection(rule: string): void;
  /** This process's metrics (what the primary sums in a cluster). */
  readonly registry: Registry;
  /**
   * The text exposition of every serving process's metrics: this process's alone, or in a cluster worker, every
   * worker's summed by the primary. Rejects when the primary does not gather them in time.
   */
  render(): Promise<string>;
};

export type MetricsOptions = {
  /** This process's PostgreSQL pool, reported when present. */
  poolStats?: () => PoolStats;
  /** Gathers the cluster's metrics; by default the primary is asked when this process is a cluster worker. */
  gatherCluster?: () => Promise<string>;
};

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from receiving a request to its answer's headers, by method and route pattern.",
    labelNames: ["method", "route"] as const,
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [registry],
  });
  const rateLimitRejections = new Counter({
    name: "atrium_rate_limit_rejections_total",
    help: "Requests refused with 429 by a rate-limit rule, by rule.",
    labelNames: ["rule"] as const,
    registers: [registry],
  });
  // Summed over the processes of a cluster: the memory of all of them.
  new Gauge({
    name: "process_resident_memory_bytes",
    help: "Resident memory of the serving processes (in a cluster, of every worker together).",
    registers: [registry],
    aggregator: "sum",
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  // The youngest process's: a worker that keeps being replaced shows as a low uptime.
  new Gauge({
    name: "process_uptime_seconds",
    help: "Seconds since the serving process started (in a cluster, the most recently started worker).",
    registers: [registry],
    aggregator: "min",
    collect() {
      this.set(process.uptime());
    },
  });
  const { poolStats } = options;
  if (poolStats) {
    new Gauge({
      name: "atrium_database_pool_connections",
      help: "Connections of the PostgreSQL pools (in a cluster, every worker's), by state.",
      labelNames: ["state"] as const,
      registers: [registry],
      aggregator: "sum",
      collect() {
        const stats = poolStats();
        this.set({ state: "idle" }, stats.idle);
        this.set({ state: "busy" }, stats.total - stats.idle);
      },
    });
    new Gauge({
      name: "atrium_database_pool_waiting_queries",
      help: "Queries waiting for a free pool connection (in a cluster, in every worker).",
      registers: [registry],
      aggregator: "sum",
      collect() {
        this.set(poolStats().waiting);
      },
    });
  }
  const gatherCluster = options.gatherCluster ?? (cluster.isWorker ? answerPrimary(registry) : undefined);
  return {
    registry,
    observeRequest(rawMethod, route, status, seconds) {
      const method = KNOWN_METHODS.has(rawMethod) ? rawMethod : "OTHER";
      requests.inc({ method, route, status: String(status) });
      durations.observe({ method, route }, seconds);
    },
    countRateLimitRejection(rule) {
      rateLimitRejections.inc({ rule });
    },
    render: () => (gatherCluster ? gatherCluster() : registry.metrics()),
  };
}

const GATHER_REQUEST = "atrium:metrics:gather";
const GATHER_ANSWER = "atrium:metrics:gathered";
/** A little longer than prom-client's own bound on gathering (5 s), so its error is the one reported. */
const GATHER_TIMEOUT_MS = 6_000;

type GatherAnswer = { type: typeof GATHER_ANSWER; id: number; text?: string; error?: string };

/**
 * In a cluster worker: hands `registry` to prom-client's worker side, which answers the primary's requests for this
 * process's metrics, and returns the function that asks the primary for every worker's, summed.
 */
function answerPrimary(registry: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one is what makes prom-client answer the primary's requests in this process.
  new AggregatorRegistry();
  const pending = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let nextId = 0;
  process.on("message", (message: GatherAnswer) => {
    if (message?.type !== GATHER_ANSWER) return;
    const request = pending.get(message.id);
    pending.delete(message.id);
    if (message.text !== undefined) request?.resolve(message.text);
    else request?.reject(new Error(message.error ?? "the primary gathered no metrics"));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error("the cluster primary did not answer the metrics request in time"));
      }, GATHER_TIMEOUT_MS);
      const settle = {
        resolve: (text: string) => (clearTimeout(timer), resolve(text)),
        reject: (error: Error) => (clearTimeout(timer), reject(error)),
      };
      pending.set(id, settle);
      process.send?.({ type: GATHER_REQUEST, id }, undefined, {}, (error: Error | null) => {
        if (!error) return;
        pending.delete(id);
        settle.reject(error);
      });
    });
}

/**
 * In the cluster primary (server/cluster.ts): answers each worker's request for the cluster's metrics with every
 * live worker's metrics, summed (histograms bucket by bucket; the gauges by their own aggregator).
 */
export function gatherClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== GATHER_REQUEST || typeof message.id !== "number") return;
    const id = message.id;
    const answer = (reply: Omit<GatherAnswer, "type" | "id">) => {
      if (worker.isConnected()) worker.send({ type: GATHER_ANSWER, id, ...reply });
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** One backlog gauge as a module reads it at scrape time: its name, help text and samples (one per label set). */
export type BacklogReading = {
  name: string;
  help: string;
  samples: { labels?: Record<string, string>; value: number }[];
};

/** A backlog gauge of `samples`. */
export function gauge(name: string, help: string, samples: BacklogReading["samples"]): BacklogReading {
  return { name, help, samples };
}

/** Seconds since `oldest` (a timestamp as either dialect returns it), 0 when there is none. */
export function ageSeconds(oldest: Date | string | null | undefined, now: number): number {
  const iso = toIsoString(oldest);
  return iso === null ? 0 : Math.max(0, (now - Date.parse(iso)) / 1000);
}

/**
 * A queue's backlog, read from the database at scrape time (`now` is the scrape's time). The modules that own the
 * queues register theirs with the operations routes (http/ knows no module's table); a read that fails or takes
 * too long is reported as the database being down.
 */
export type BacklogMetrics = (now: number) => Promise<BacklogReading[]>;
