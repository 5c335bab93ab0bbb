import { describe, expect, test } from "vitest";
import { createMetrics, renderPrometheus } from "./metrics";

describe("renderPrometheus", () => {
  test("writes HELP and TYPE, then one line per sample with its labels, escaped", () => {
    const text = renderPrometheus([
      {
        name: "things_total",
        help: "Things, counted.\nTwo lines \\ and a backslash.",
        type: "counter",
        samples: [{ value: 3 }, { labels: { kind: 'a "quoted"\nvalue \\ here', other: "x" }, value: 1.5 }],
      },
      { name: "level", help: "A gauge.", type: "gauge", samples: [{ value: Number.POSITIVE_INFINITY }, { labels: { at: "nan" }, value: Number.NaN }] },
    ]);
    expect(text).toBe(
      [
        "# HELP things_total Things, counted.\\nTwo lines \\\\ and a backslash.",
        "# TYPE things_total counter",
        "things_total 3",
        'things_total{kind="a \\"quoted\\"\\nvalue \\\\ here",other="x"} 1.5',
        "# HELP level A gauge.",
        "# TYPE level gauge",
        "level +Inf",
        'level{at="nan"} NaN',
        "",
      ].join("\n"),
    );
  });
});

describe("createMetrics", () => {
  test("counts requests by method, route and status, and their durations in cumulative buckets", () => {
    const metrics = createMetrics();
    metrics.observeRequest("GET", "/api/things/:id", 200, 0.003);
    metrics.observeRequest("GET", "/api/things/:id", 200, 0.2);
    metrics.observeRequest("GET", "/api/things/:id", 404, 12);
    metrics.observeRequest("PROPFIND", "*", 404, 0.001);
    const text = renderPrometheus(metrics.families());
    const lines = text.split("\n");
    expect(lines).toContain('http_requests_total{method="GET",route="/api/things/:id",status="200"} 2');
    expect(lines).toContain('http_requests_total{method="GET",route="/api/things/:id",status="404"} 1');
    expect(lines).toContain('http_requests_total{method="OTHER",route="*",status="404"} 1');
    expect(text).not.toContain("PROPFIND");
    const bucket = (le: string) =>
      lines.find((line) => line.startsWith(`http_request_duration_seconds_bucket{method="GET",route="/api/things/:id",le="${le}"} `));
    expect(bucket("0.005")).toMatch(/ 1$/);
    expect(bucket("0.1")).toMatch(/ 1$/);
    expect(bucket("0.25")).toMatch(/ 2$/);
    expect(bucket("10")).toMatch(/ 2$/);
    expect(bucket("+Inf")).toMatch(/ 3$/);
    expect(lines).toContain('http_request_duration_seconds_count{method="GET",route="/api/things/:id"} 3');
    expect(lines.find((line) => line.startsWith('http_request_duration_seconds_sum{method="GET",route="/api/things/:id"} '))).toBe(
      'http_request_duration_seconds_sum{method="GET",route="/api/things/:id"} 12.203',
    );
    expect(text).toContain("# TYPE http_request_duration_seconds histogram\n");
  });

  test("a duration on a bucket's bound is counted in that bucket", () => {
    const metrics = createMetrics();
    metrics.observeRequest("GET", "/", 200, 0.005);
    expect(renderPrometheus(metrics.families())).toContain('http_request_duration_seconds_bucket{method="GET",route="/",le="0.005"} 1\n');
  });

  test("counts rate-limit rejections by rule", () => {
    const metrics = createMetrics();
    metrics.countRateLimitRejection("/sign-in/*");
    metrics.countRateLimitRejection("/sign-in/*");
    metrics.countRateLimitRejection("default");
    const text = renderPrometheus(metrics.families());
    expect(text).toContain('atrium_rate_limit_rejections_total{rule="/sign-in/*"} 2\n');
    expect(text).toContain('atrium_rate_limit_rejections_total{rule="default"} 1\n');
  });
});
