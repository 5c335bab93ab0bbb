// The bench's child processes and what Linux says about them: each server under test runs in a node process of its
// own (spawned directly, so its pid is the server and not a wrapper), and its memory and CPU time are read from /proc.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

export type ServerProcess = { pid: number; baseUrl: string; logFile: string; stop(): Promise<void> };

function tail(file: string, lines = 30): string {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-lines).join("\n") : "(no log)";
}

/**
 * Runs `entry` (a JavaScript file of this repository: the compiled server, as `npm start` runs it, or the reference)
 * on plain node, with its output in `logFile`; resolves once `readyPath` answers 200.
 */
export async function startServer(options: {
  entry: string;
  port: number;
  env: Record<string, string>;
  readyPath: string;
  logFile: string;
  /** Options for node itself, before the entry. */
  nodeOptions?: string[];
}): Promise<ServerProcess> {
  const log = createWriteStream(options.logFile);
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), options.entry], {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const server: ServerProcess = {
    pid: child.pid ?? 0,
    baseUrl,
    logFile: options.logFile,
    stop: () => stop(child).finally(() => log.end()),
  };
  try {
    await waitUntilReady(`${baseUrl}${options.readyPath}`, child, options.logFile, 90_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${url}: the server exited with code ${child.exitCode} before it was ready:\n${tail(logFile)}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
}

/** SIGTERM (the server's graceful shutdown closes its database), then SIGKILL if it has not exited 15 s later. */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** VmRSS and VmHWM (the peak the kernel has seen) of a live process, in bytes; undefined once it has exited. */
export function readMemory(pid: number): { rss: number; highWaterMark: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kilobytes = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kilobytes("VmRSS"), highWaterMark: kilobytes("VmHWM") };
}

export type MemorySampler = {
  /** Starts a new window (one measured path). */
  startWindow(): void;
  /** The highest RSS sampled since `startWindow`. */
  windowPeak(): number;
  /** Stops sampling: the highest RSS sampled overall, and the kernel's high-water mark read now. */
  stop(): { sampledPeak: number; highWaterMark: number };
};

/** Reads the process's RSS every `everyMs`, so a peak between two measured paths is seen too. */
export function sampleMemory(pid: number, everyMs = 200): MemorySampler {
  let peak = 0;
  let window = 0;
  const sample = () => {
    const rss = readMemory(pid)?.rss ?? 0;
    peak = Math.max(peak, rss);
    window = Math.max(window, rss);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    startWindow: () => {
      window = 0;
      sample();
    },
    windowPeak: () => {
      sample();
      return window;
    },
    stop: () => {
      sample();
      clearInterval(timer);
      return { sampledPeak: peak, highWaterMark: readMemory(pid)?.highWaterMark ?? Number.NaN };
    },
  };
}

const clockTicksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** User plus system CPU time of every thread of a process so far (the libuv thread pool's included), in ms. */
export function readCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one, which is field 3.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return ((utime + stime) / clockTicksPerSecond) * 1000;
}

/** The machine's CPU time since boot, all cores together: idle, and in all. I/O wait counts as busy. */
function cpuTimes(): { idle: number; total: number } {
  const [line = ""] = readFileSync("/proc/stat", "utf8").split("\n", 1);
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  return { idle: ticks[3] ?? 0, total: ticks.reduce((sum, value) => sum + value, 0) };
}

const IDLE_SHARE = 0.9;
const IDLE_SECONDS = 3;

/**
 * Waits until the machine has been at least 90 % idle for 3 seconds in a row, or `timeoutMs` has passed: what a seed
 * leaves to do (PostgreSQL's writes and vacuums, the kernel's writeback) must not be measured as the product's cost.
 * Returns how long it waited and whether the machine went quiet.
 */
export async function waitUntilIdle(timeoutMs = 120_000): Promise<{ seconds: number; idle: boolean }> {
  const started = Date.now();
  let quietSeconds = 0;
  let before = cpuTimes();
  while (Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = cpuTimes();
    const idleShare = (after.idle - before.idle) / Math.max(1, after.total - before.total);
    before = after;
    quietSeconds = idleShare >= IDLE_SHARE ? quietSeconds + 1 : 0;
    if (quietSeconds >= IDLE_SECONDS) return { seconds: (Date.now() - started) / 1000, idle: true };
  }
  return { seconds: (Date.now() - started) / 1000, idle: false };
}
