/**
 * The process's own metrics and their Prometheus text rendering (exposition format 0.0.4), written by hand: a few
 * counters and one histogram need no library. Counting a request is a map lookup and a few increments, as cheap
 * as it can be on the path every request takes. Each process counts its own requests (in a cluster, each worker).
 */

import { toIsoString } from "../db/database";

export type MetricType = "counter" | "gauge" | "histogram";
export type Sample = { name?: string; labels?: Record<string, string>; value: number };
/** One metric family: its samples are named `name` unless they say otherwise (a histogram's `_bucket`, `_sum`, `_count`). */
export type MetricFamily = { name: string; help: string; type: MetricType; samples: Sample[] };

/** Upper bounds of the request duration histogram, in seconds: from a replayed read to a slow scrypt sign-in. */
export const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Methods counted under their own name; anything else a client invents is counted as OTHER (bounded labels). */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type RouteSeries = {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** Observations per bucket, not cumulative (the rendering adds them up); the last one is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
};

export type Metrics = {
  /** Counts one answered request: `route` is the pattern that answered it, never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Counts one request refused with 429 by the rate-limit rule `rule`. */
  countRateLimitRejection(rule: string): void;
  /** The families counted in this process, ready for `renderPrometheus`. */
  families(): MetricFamily[];
};

export function createMetrics(): Metrics {
  const series = new Map<string, RouteSeries>();
  const rateLimitRejections = new Map<string, number>();
  return {
    observeRequest(rawMethod, route, status, seconds) {
      const method = KNOWN_METHODS.has(rawMethod) ? rawMethod : "OTHER";
      const key = `${method} ${route}`;
      let entry = series.get(key);
      if (entry === undefined) {
        entry = { method, route, byStatus: new Map(), buckets: new Array<number>(DURATION_BUCKETS_SECONDS.length + 1).fill(0), sum: 0, count: 0 };
        series.set(key, entry);
      }
      entry.byStatus.set(status, (entry.byStatus.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < DURATION_BUCKETS_SECONDS.length && seconds > DURATION_BUCKETS_SECONDS[bucket]!) bucket += 1;
      entry.buckets[bucket]! += 1;
      entry.sum += seconds;
      entry.count += 1;
    },
    countRateLimitRejection(rule) {
      rateLimitRejections.set(rule, (rateLimitRejections.get(rule) ?? 0) + 1);
    },
    families() {
      const requests: Sample[] = [];
      const durations: Sample[] = [];
      for (const { method, route, byStatus, buckets, sum, count } of series.values()) {
        for (const [status, value] of byStatus) requests.push({ labels: { method, route, status: String(status) }, value });
        let cumulative = 0;
        buckets.forEach((observed, index) => {
          cumulative += observed;
          const le = index < DURATION_BUCKETS_SECONDS.length ? String(DURATION_BUCKETS_SECONDS[index]) : "+Inf";
          durations.push({ name: "http_request_duration_seconds_bucket", labels: { method, route, le }, value: cumulative });
        });
        durations.push({ name: "http_request_duration_seconds_sum", labels: { method, route }, value: sum });
        durations.push({ name: "http_request_duration_seconds_count", labels: { method, route }, value: count });
      }
      return [
        {
          name: "http_requests_total",
          help: "HTTP requests answered by this process, by method, route pattern and status.",
          type: "counter",
          samples: requests,
        },
        {
          name: "http_request_duration_seconds",
          help: "Time from receiving a request to its answer's headers, by method and route pattern.",
          type: "histogram",
          samples: durations,
        },
        {
          name: "atrium_rate_limit_rejections_total",
          help: "Requests refused with 429 by a rate-limit rule, by rule.",
          type: "counter",
          samples: [...rateLimitRejections].map(([rule, value]) => ({ labels: { rule }, value })),
        },
      ];
    },
  };
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/** The Prometheus text exposition (0.0.4) of `families`: HELP and TYPE lines, then one line per sample. */
export function renderPrometheus(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${family.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`);
    lines.push(`# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels ?? {});
      const labelText = labels.length === 0 ? "" : `{${labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
      lines.push(`${sample.name ?? family.name}${labelText} ${formatValue(sample.value)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The content type of the text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** A gauge family of `samples`. */
export function gauge(name: string, help: string, samples: MetricFamily["samples"]): MetricFamily {
  return { name, help, type: "gauge", samples };
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
export type BacklogMetrics = (now: number) => Promise<MetricFamily[]>;
