import { AggregatorRegistry } from "prom-client";
import { describe, expect, test } from "vitest";
import { createMetrics, type Metrics } from "./metrics";

const lines = async (metrics: Metrics) => (await metrics.render()).split("\n");
const sample = (text: string[], series: string) => {
  const line = text.find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("createMetrics", () => {
  test("counts requests by method, route and status, and their durations in cumulative buckets", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("GET", "/api/things/:id", 200, 0.003);
    metrics.observeRequest("GET", "/api/things/:id", 200, 0.2);
    metrics.observeRequest("GET", "/api/things/:id", 404, 12);
    metrics.observeRequest("PROPFIND", "*", 404, 0.001);
    const text = await lines(metrics);
    expect(text).toContain('http_requests_total{method="GET",route="/api/things/:id",status="200"} 2');
    expect(text).toContain('http_requests_total{method="GET",route="/api/things/:id",status="404"} 1');
    expect(text).toContain('http_requests_total{method="OTHER",route="*",status="404"} 1');
    expect(text.join("\n")).not.toContain("PROPFIND");
    const labels = 'method="GET",route="/api/things/:id"';
    const bucket = (le: string) => sample(text, `http_request_duration_seconds_bucket{le="${le}",${labels}}`);
    expect(bucket("0.005")).toBe(1);
    expect(bucket("0.1")).toBe(1);
    expect(bucket("0.25")).toBe(2);
    expect(bucket("10")).toBe(2);
    expect(bucket("+Inf")).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/things/:id"}')).toBe(3);
    expect(sample(text, `http_request_duration_seconds_sum{${labels}}`)).toBeCloseTo(12.203, 9);
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
  });

  test("a duration on a bucket's bound is counted in that bucket", async () => {
    const metrics = createMetrics();
    metrics.observeRequest("GET", "/", 200, 0.005);
    expect(await lines(metrics)).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/"} 1');
  });

  test("counts rate-limit rejections by rule", async () => {
    const metrics = createMetrics();
    metrics.countRateLimitRejection("/sign-in/*");
    metrics.countRateLimitRejection("/sign-in/*");
    metrics.countRateLimitRejection("app:default");
    const text = await lines(metrics);
    expect(text).toContain('atrium_rate_limit_rejections_total{rule="/sign-in/*"} 2');
    expect(text).toContain('atrium_rate_limit_rejections_total{rule="app:default"} 1');
  });

  test("reports the process's memory and uptime, and the pool only when there is one", async () => {
    const withoutPool = await lines(createMetrics());
    expect(sample(withoutPool, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(withoutPool, "process_uptime_seconds")).toBeGreaterThan(0);
    expect(withoutPool.join("\n")).not.toContain("atrium_database_pool");
    const withPool = await lines(createMetrics({ poolStats: () => ({ total: 5, idle: 3, waiting: 2 }) }));
    expect(sample(withPool, 'atrium_database_pool_connections{state="idle"}')).toBe(3);
    expect(sample(withPool, 'atrium_database_pool_connections{state="busy"}')).toBe(2);
    expect(sample(withPool, "atrium_database_pool_waiting_queries")).toBe(2);
  });

  test("renders what the cluster gathers when it is a worker's metrics", async () => {
    const metrics = createMetrics({ gatherCluster: async () => "gathered by the primary\n" });
    expect(await metrics.render()).toBe("gathered by the primary\n");
  });
});

describe("the cluster's sum (what the primary answers a scrape with)", () => {
  test("adds up the workers' requests, durations, rejections, memory and pool; uptime is the youngest's", async () => {
    const workers = [
      createMetrics({ poolStats: () => ({ total: 4, idle: 1, waiting: 0 }) }),
      createMetrics({ poolStats: () => ({ total: 2, idle: 2, waiting: 1 }) }),
    ];
    workers[0]!.observeRequest("GET", "/livez", 200, 0.001);
    workers[1]!.observeRequest("GET", "/livez", 200, 2);
    workers[1]!.observeRequest("GET", "/livez", 200, 0.001);
    workers[0]!.countRateLimitRejection("app:billing-provider");
    workers[1]!.countRateLimitRejection("app:billing-provider");
    const perWorker = await Promise.all(workers.map((worker) => worker.registry.getMetricsAsJSON()));
    const text = (await AggregatorRegistry.aggregate(perWorker).metrics()).split("\n");
    expect(sample(text, 'http_requests_total{method="GET",route="/livez",status="200"}')).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_bucket{le="0.005",method="GET",route="/livez"}')).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/livez"}')).toBe(3);
    expect(sample(text, 'atrium_rate_limit_rejections_total{rule="app:billing-provider"}')).toBe(2);
    expect(sample(text, 'atrium_database_pool_connections{state="busy"}')).toBe(3);
    expect(sample(text, "atrium_database_pool_waiting_queries")).toBe(1);
    const valueIn = (registry: (typeof perWorker)[number], name: string) => {
      const metric = registry.find((candidate) => candidate.name === name);
      return Number(metric?.values[0]?.value);
    };
    const valuesOf = (name: string) => perWorker.map((registry) => valueIn(registry, name));
    const [first = 0, second = 0] = valuesOf("process_resident_memory_bytes");
    expect(sample(text, "process_resident_memory_bytes")).toBe(first + second);
    expect(sample(text, "process_uptime_seconds")).toBe(Math.min(...valuesOf("process_uptime_seconds")));
  });
});
