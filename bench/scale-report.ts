// What `npm run bench:scale` writes: its section of docs/performance.md (between two markers, replaced on every run)
// and docs/performance-scale.svg, a chart of p99 against size with one line per path, drawn by hand.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { LoadResult } from "./load";
import type { RatedPath } from "./measure";
import { root } from "./processes";
import { machine, mb, percent, type Row, type Target } from "./report";
import type { SignInCpu } from "./sign-in-cpu";

export type SizeResult = {
  users: number;
  hello: Row;
  rows: RatedPath[];
  signIn: SignInCpu;
  peakRss: number;
  targets: Target[];
  /** The machine's load average when the size's measurements ended. */
  loadAverage: string;
  /** How long the bench waited for the machine to go idle before measuring the size, and whether it did. */
  quiet: { seconds: number; idle: boolean };
};
export type SoakMinute = LoadResult & { minute: number; rssBytes: number; startRssBytes: number };

const START = "<!-- bench:scale start -->";
const END = "<!-- bench:scale end -->";
const CHART = "performance-scale.svg";
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];

const count = (value: number) => value.toLocaleString("en");
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** p99 (ms) against users (log scale), one line per measured path. */
export function chart(results: readonly SizeResult[]): string {
  const [width, height, left, top, plotWidth, plotHeight] = [900, 420, 60, 30, 480, 330];
  const titles = results[0]?.rows.map((rated) => rated.entry.title) ?? [];
  const p99s = results.flatMap((result) => result.rows.map((rated) => rated.row.p99));
  const step = Math.max(5, Math.ceil(Math.max(1, ...p99s) / 5 / 5) * 5);
  const yMax = step * 5;
  const logs = results.map((result) => Math.log10(result.users));
  const [minLog, maxLog] = [Math.min(...logs), Math.max(...logs)];
  const x = (users: number) =>
    left + (maxLog === minLog ? plotWidth / 2 : ((Math.log10(users) - minLog) / (maxLog - minLog)) * plotWidth);
  const y = (ms: number) => top + plotHeight - (Math.min(ms, yMax) / yMax) * plotHeight;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
      `font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="18" font-size="14">p99 latency (ms) against users, 10 connections, PostgreSQL</text>`,
  ];
  for (let tick = 0; tick <= yMax; tick += step)
    parts.push(
      `<line x1="${left}" y1="${y(tick)}" x2="${left + plotWidth}" y2="${y(tick)}" stroke="#ddd"/>`,
      `<text x="${left - 8}" y="${y(tick) + 4}" text-anchor="end">${tick}</text>`,
    );
  for (const result of results)
    parts.push(
      `<text x="${x(result.users)}" y="${top + plotHeight + 18}" text-anchor="middle">${count(result.users)}</text>`,
    );
  titles.forEach((title, index) => {
    const color = COLORS[index % COLORS.length] ?? "#000";
    const points = results.flatMap((result) => {
      const row = result.rows[index]?.row;
      return row ? [`${x(result.users).toFixed(1)},${y(row.p99).toFixed(1)}`] : [];
    });
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(" ")}"/>`);
    for (const point of points) {
      const [cx, cy] = point.split(",");
      parts.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${color}"/>`);
    }
    const legendY = top + 10 + index * 20;
    parts.push(
      `<line x1="${left + plotWidth + 20}" y1="${legendY}" x2="${left + plotWidth + 40}" y2="${legendY}" ` +
        `stroke="${color}" stroke-width="2"/>`,
      `<text x="${left + plotWidth + 46}" y="${legendY + 4}">${escape(title)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

/** The markdown of the section: the command, the machine, one row per path, the targets, the soak. */
export function section(options: {
  results: readonly SizeResult[];
  seededMs: number;
  soak: readonly SoakMinute[];
  targets: readonly Target[];
}): string {
  const { results, seededMs, soak, targets } = options;
  const header = ["path", ...results.map((result) => `${count(result.users)} users`)];
  const cell = (row: Row, withRatio: boolean) =>
    `${count(Math.round(row.requestsPerSecond))}/s, p99 ${row.p99} ms${withRatio ? `, ${percent(row.ratio)}` : ""}` +
    (row.errors ? `, ${row.errors} errors` : "");
  const lines = [
    START,
    "",
    "Written by `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale` on " +
      `${new Date().toISOString().slice(0, 10)}.`,
    `${machine("PostgreSQL")}.`,
    "Load average (1, 5, 15 minutes) at the end of each size:",
    results.map((result) => `${count(result.users)}: ${result.loadAverage}`).join("; ") + ".",
    "Before each size, the bench waited for the machine to be 90 % idle for 3 seconds in a row (at most 120 s):",
    results
      .map(({ users, quiet }) => `${count(users)}: ${quiet.seconds.toFixed(0)} s${quiet.idle ? "" : ", still busy"}`)
      .join("; ") + ".",
    "",
    "Each cell: requests a second, p99, and where a target is a share, the share of the faster of the hello-world runs",
    "right before and right after the path. The hello-world row is the size's fastest run.",
    `Seeding every size, organizations and memberships included: ${(seededMs / 1000).toFixed(0)} s.`,
    "",
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    `| hello-world GET / | ${results.map((result) => cell(result.hello, false)).join(" | ")} |`,
    ...(results[0]?.rows ?? []).map(
      (rated, index) =>
        `| ${rated.entry.title} | ${results
          .map((result) => {
            const other = result.rows[index];
            return other ? cell(other.row, other.entry.target?.ratioAtLeast !== undefined) : "";
          })
          .join(" | ")} |`,
    ),
    `| sign-in CPU in hashing | ${results.map((result) => percent(result.signIn.share)).join(" | ")} |`,
    `| product RSS, peak | ${results.map((result) => mb(result.peakRss)).join(" | ")} |`,
    "",
    `![p99 against users, one line per path](${CHART})`,
    "",
    ...targets.map((target) => `- ${target.met ? "✓" : "✗"} ${target.name}: ${target.measured}`),
  ];
  if (soak.length) {
    lines.push(
      "",
      `Soak at ${count(results.at(-1)?.users ?? 0)} users, half the measured capacity, one line a minute:`,
      "",
      "| minute | req/s | p50 ms | p99 ms | errors | RSS | since the start |",
      "| --- | --- | --- | --- | --- | --- | --- |",
      ...soak.map(
        (minute) =>
          `| ${minute.minute} | ${count(Math.round(minute.requestsPerSecond))} | ${minute.p50} | ${minute.p99} | ` +
          `${minute.errors} | ${mb(minute.rssBytes)} | ` +
          `${percent((minute.rssBytes - minute.startRssBytes) / minute.startRssBytes)} |`,
      ),
    );
  }
  lines.push("", END);
  return lines.join("\n");
}

/** Replaces the section between the markers of docs/performance.md (appends it the first time) and the chart. */
export function writeScaleReport(options: Parameters<typeof section>[0]): void {
  const docs = path.join(root, "docs", "performance.md");
  const text = readFileSync(docs, "utf8");
  const [before, rest] = text.includes(START) ? text.split(START) : [`${text.trimEnd()}\n\n`, END];
  const after = (rest ?? END).split(END)[1] ?? "\n";
  writeFileSync(docs, `${before}${section(options)}${after}`);
  writeFileSync(path.join(root, "docs", CHART), chart(options.results));
  console.log(`Wrote docs/performance.md (its bench:scale section) and docs/${CHART}`);
}
