// What `npm run bench` prints: one line per measured path, the targets with a tick or a cross, and the machine.
import { readFileSync } from "node:fs";
import os from "node:os";
import type { LoadResult } from "./load";
import type { SignInCpu } from "./sign-in-cpu";

export type Row = LoadResult & { title: string; rssBytes: number; ratio: number };
export type Target = { name: string; measured: string; met: boolean };

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;

const COLUMNS = ["req/s", "p50 ms", "p99 ms", "errors", "RSS MB", "vs hello"];
/** Wide enough for the longest title, so the header can be printed before the first row. */
const TITLE_WIDTH = 44;

export function rowsHeader(): string {
  return `${"path".padEnd(TITLE_WIDTH)} ${COLUMNS.map((column) => column.padStart(9)).join(" ")}`;
}

/** One measured path. autocannon's latencies have a resolution of 1 ms. */
export function rowLine(row: Row): string {
  return [
    row.title.padEnd(TITLE_WIDTH),
    row.requestsPerSecond.toFixed(0).padStart(9),
    row.p50.toFixed(0).padStart(9),
    row.p99.toFixed(0).padStart(9),
    String(row.errors).padStart(9),
    (row.rssBytes / 1024 / 1024).toFixed(1).padStart(9),
    percent(row.ratio).padStart(9),
  ].join(" ");
}

export function targetsTable(targets: readonly Target[]): string {
  const width = Math.max(...targets.map((target) => target.name.length));
  return [
    `   ${"target".padEnd(width)}  measured`,
    ...targets.map((target) => `${target.met ? "✓" : "✗"}  ${target.name.padEnd(width)}  ${target.measured}`),
  ].join("\n");
}

/** The machine's load average over 1, 5 and 15 minutes: other work on the same cores moves every number. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(", ");

/** CPU model, cores, memory, Node, the database and the load average: what a reader needs to compare two runs. */
export function machine(dialect: string): string {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? "unknown CPU";
  const memory = `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`;
  return (
    `${model.trim()}, ${os.availableParallelism()} cores, ${memory}, Node ${process.version}, ${dialect}; ` +
    `load average ${loadAverage()}`
  );
}

export const signInLine = (signIn: SignInCpu) =>
  `Sign-in: ${signIn.productMsPerSignIn.toFixed(1)} ms of product CPU per sign-in (${signIn.signIns} in a row); ` +
  `better-auth's scrypt password check alone: ${signIn.verifyMsPerSignIn.toFixed(1)} ms of CPU; ` +
  `share in hashing ${percent(signIn.share)}`;

export const signInTarget = (signIn: SignInCpu): Target => ({
  name: "sign-in CPU in password hashing ≥ 85 %",
  measured: percent(signIn.share),
  met: signIn.share >= 0.85,
});

/** Prints the targets, the machine and the outcome; true when every target is met. */
export function verdict(targets: readonly Target[], dialect: string): boolean {
  console.log(`\n${targetsTable(targets)}\n\nMachine: ${machine(dialect)}`);
  const missed = targets.filter((target) => !target.met);
  console.log(
    missed.length
      ? `Bench: ${targets.length - missed.length} of ${targets.length} targets met; ` +
          `missed: ${missed.map((target) => target.name).join("; ")}`
      : `Bench: all ${targets.length} targets met`,
  );
  return missed.length === 0;
}
