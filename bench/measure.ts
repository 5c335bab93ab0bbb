// What both benches do around the product: their settings, their cleanups, fresh builds, and loading measured paths
// against a Hono hello-world in the same run.
import { build } from "../scripts/build.mjs";
import { staleBuilds } from "../scripts/builds.mjs";
import { freePort } from "../server/test/free-port";
import { load, nextClientAddress } from "./load";
import { root, sampleMemory, startServer, type MemorySampler } from "./processes";
import { percent, rowLine, rowsHeader, type Row, type Target } from "./report";

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 50);
/**
 * A common surname, a substring of many (Johnson, Wilson, Anderson…), a rare surname (one of users.ts's), another
 * common one.
 */
export const ADMIN_SEARCHES = ["smith", "son", "zbikowski", "garcia"];
export const ADMIN_P99_BUDGET_MS = 50;
/** What a browser sends: the product compresses API answers of 1 KB and more for it, and that is part of the cost. */
export const BROWSER_HEADERS = { "accept-encoding": "gzip, deflate, br" };

/** Cleanups run in reverse order, once, on every way out (an error or Ctrl-C included). */
export const cleanups: Array<() => Promise<void>> = [];
export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse())
    await cleanup().catch((error: unknown) => console.error("cleanup failed:", error));
}
process.once("SIGINT", () => void cleanUp().finally(() => process.exit(130)));

export function ensureBuilds(): void {
  const stale = staleBuilds(root);
  if (stale.length === 0) return;
  console.log(`Building ${stale.join(" and ")} (missing or older than the sources)…`);
  const status = build(root, stale);
  if (status !== 0) throw new Error(`the build exited with ${status}`);
}

/** A target on one measured path: its rate as a share of hello-world's, or its p99. */
export type LoadTarget = { name: string; ratioAtLeast?: number; p99BelowMs?: number };
export type MeasuredPath = {
  title: string;
  /** Requested in turn by every connection; with `nextPath`, the paths checked before the load. */
  paths: string[];
  /** Every request's path, when each is to be a first read (no answer replayed): distinct searches or pages. */
  nextPath?: () => string;
  headers: Record<string, string>;
  connections: number;
  check: (body: unknown) => boolean;
  target?: LoadTarget;
};

/** Each path once, before any load: a 200 with the expected body, so a bench of error pages cannot happen. */
export async function checkAnswers(baseUrl: string, measured: MeasuredPath): Promise<void> {
  for (const url of measured.paths) {
    const response = await fetch(`${baseUrl}${url}`, {
      headers: { ...measured.headers, "x-forwarded-for": nextClientAddress() },
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    if (response.status !== 200 || !measured.check(body))
      throw new Error(`GET ${url} answered ${response.status} with an unexpected body: ${text.slice(0, 300)}`);
  }
}

/**
 * A short unreported run first (connections, caches and JIT warm), then the measured one, sampling the server's RSS.
 * The ratio to hello-world is set once both hello-world runs are in.
 */
export async function measure(baseUrl: string, measured: MeasuredPath, memory: MemorySampler): Promise<Row> {
  const options = {
    baseUrl,
    paths: measured.paths,
    nextPath: measured.nextPath,
    headers: measured.headers,
    connections: measured.connections,
  };
  if (WARM_UP_SECONDS > 0) await load({ ...options, seconds: WARM_UP_SECONDS });
  memory.startWindow();
  const result = await load({ ...options, seconds: SECONDS });
  return { ...result, title: measured.title, rssBytes: memory.windowPeak(), ratio: 1 };
}

async function measureHelloWorld(when: string): Promise<Row> {
  const port = await freePort();
  const hello = await startServer({
    entry: "bench/hello-world.mjs",
    port,
    env: { PORT: String(port) },
    readyPath: "/",
    logFile: "/dev/null",
  });
  const memory = sampleMemory(hello.pid);
  try {
    const measured: MeasuredPath = {
      title: `hello-world GET / (${when})`,
      paths: ["/"],
      headers: BROWSER_HEADERS,
      connections: CONNECTIONS,
      check: (body) => body === "Hello",
    };
    await checkAnswers(hello.baseUrl, measured);
    return await measure(hello.baseUrl, measured, memory);
  } finally {
    memory.stop();
    await hello.stop();
  }
}

/** A load target is missed by any error, whatever the numbers. */
export function loadTarget(target: LoadTarget, row: Row): Target {
  const errors = row.errors ? `, ${row.errors} errors` : "";
  if (target.p99BelowMs !== undefined) {
    return {
      name: `${target.name}: p99 < ${target.p99BelowMs} ms`,
      measured: `p99 ${row.p99.toFixed(0)} ms${errors}`,
      met: !row.errors && row.p99 < target.p99BelowMs,
    };
  }
  const minimum = target.ratioAtLeast ?? 0;
  return {
    name: `${target.name} ≥ ${(minimum * 100).toFixed(0)} % of hello-world`,
    measured: `${percent(row.ratio)}${errors}`,
    met: !row.errors && row.ratio >= minimum,
  };
}

export type RatedPath = { entry: MeasuredPath; row: Row };

/**
 * The paths loaded one after the other, with a hello-world run before the first and after the last, and right before
 * and right after each path judged as a share of hello-world: that share is taken against the faster of its two
 * runs, so that a slow moment of the machine (it came and went within a minute, with the cores idle before it) is
 * counted against the product only when hello-world ran as fast around it. Other rows are shown against the fastest
 * run. Prints every row and returns them with their targets.
 */
export async function measureAgainstHelloWorld(
  baseUrl: string,
  measured: readonly MeasuredPath[],
  memory: MemorySampler,
): Promise<{ hello: Row; rows: RatedPath[]; targets: Target[] }> {
  const hellos = [await measureHelloWorld("before")];
  let helloIsLast = true;
  const measuredRows: Array<{ entry: MeasuredPath; row: Row; around?: Row }> = [];
  for (const entry of measured) {
    const judged = entry.target?.ratioAtLeast !== undefined;
    if (judged && !helloIsLast) hellos.push(await measureHelloWorld(`before ${entry.title}`));
    const before = hellos.at(-1) as Row;
    const row = await measure(baseUrl, entry, memory);
    helloIsLast = judged;
    if (!judged) {
      measuredRows.push({ entry, row });
      continue;
    }
    const after = await measureHelloWorld(`after ${entry.title}`);
    hellos.push(after);
    measuredRows.push({ entry, row, around: faster(before, after) });
  }
  if (!helloIsLast) hellos.push(await measureHelloWorld("after"));
  const hello = hellos.reduce(faster);
  console.log(`\n${rowsHeader()}`);
  for (const run of hellos) console.log(rowLine({ ...run, ratio: run.requestsPerSecond / hello.requestsPerSecond }));
  const rows: RatedPath[] = [];
  const targets: Target[] = [];
  for (const { entry, row, around } of measuredRows) {
    const rated = { ...row, ratio: row.requestsPerSecond / (around ?? hello).requestsPerSecond };
    console.log(rowLine(rated));
    rows.push({ entry, row: rated });
    if (entry.target) targets.push(loadTarget(entry.target, rated));
  }
  return { hello, rows, targets };
}

const faster = (one: Row, other: Row) => (one.requestsPerSecond >= other.requestsPerSecond ? one : other);
