import cluster, { type Worker } from "node:cluster";
import { backoffMs } from "../common/backoff";
import type { Config } from "./config";
import { openDatabase } from "./db/database";
import { migrateToLatest } from "./db/migrate";
import { gatherClusterMetrics } from "./http/metrics";
import type { Logger } from "./logger";

/**
 * Every core for `npm start` (WEB_CONCURRENCY > 1), with node:cluster. The primary loads the configuration,
 * applies the migrations once and forks one worker per slot; each worker runs server/main.ts again and listens
 * on the same port, which the primary shares out between them. The primary serves nothing itself.
 *
 * - The background jobs (mail outbox, billing worker, audit purge) run in the worker of slot 0 only, and in its
 *   replacements; the other workers serve HTTP only (`createServices(…, { runJobs: false })`).
 * - A worker that exits while the primary did not ask it to is logged and replaced in its slot. Workers that keep
 *   failing to start make the primary stop them all and exit 1 (see `RestartPolicy`).
 * - SIGTERM or SIGINT to the primary is passed on to every worker, which shuts down gracefully (main.ts); the
 *   primary exits once they all have: 0 when every one finished cleanly.
 */

/** The slot whose worker runs the background jobs. */
export const JOBS_SLOT = 0;
/** How a worker learns its slot: an argument the primary adds to the worker's command line (shown by `ps`). */
const SLOT_ARGUMENT = "--atrium-worker-slot=";
/** A worker that exits before it listens, or within this long after, failed to start. */
export const STARTUP_GRACE_MS = 5_000;
/** The primary gives up when this many workers failed to start within `FAILED_START_WINDOW_MS`. */
export const MAX_FAILED_STARTS = 5;
export const FAILED_START_WINDOW_MS = 60_000;
/** Beyond a worker's own shutdown bound (SHUTDOWN_DELAY_MS + SHUTDOWN_TIMEOUT_MS), how long the primary waits before killing it. */
const SHUTDOWN_MARGIN_MS = 5_000;

export type WorkerRole = { slot: number; runJobs: boolean };

/** This process's place in the cluster when it is a worker forked by `runClusterPrimary`; undefined otherwise. */
export function clusterWorkerRole(): WorkerRole | undefined {
  if (!cluster.isWorker) return undefined;
  const argument = process.argv.find((arg) => arg.startsWith(SLOT_ARGUMENT));
  if (!argument) return undefined;
  const slot = Number(argument.slice(SLOT_ARGUMENT.length));
  return { slot, runJobs: slot === JOBS_SLOT };
}

/** Whether this process is the primary of a cluster: several processes asked for, and none forked us. */
export function isClusterPrimary(config: Pick<Config, "webConcurrency">): boolean {
  return config.webConcurrency > 1 && cluster.isPrimary;
}

/**
 * When to replace a worker that exited. One that ran is replaced at once. One that failed to start (it never
 * listened, or exited within `STARTUP_GRACE_MS` of listening) is replaced after a delay that doubles with each
 * recent failed start (0.5 s, 1 s, 2 s…), and the `MAX_FAILED_STARTS`th within `FAILED_START_WINDOW_MS` means
 * giving up: a worker that cannot start (a database that does not answer, a port taken) must not spin.
 */
export class RestartPolicy {
  private failedStarts: number[] = [];

  /** The delay before the replacement of a worker that exited at `now`, or null to give up. */
  afterExit(listeningAt: number | undefined, now = Date.now()): number | null {
    this.failedStarts = this.failedStarts.filter((time) => now - time < FAILED_START_WINDOW_MS);
    if (listeningAt === undefined || now - listeningAt < STARTUP_GRACE_MS) this.failedStarts.push(now);
    const recent = this.failedStarts.length;
    if (recent >= MAX_FAILED_STARTS) return null;
    return recent === 0 ? 0 : backoffMs(recent, { baseMs: 500, maxMs: 8_000 });
  }
}

/**
 * The primary: applies the migrations once, then forks `config.webConcurrency` workers and supervises them until a
 * signal (or workers that cannot start) stops them. Resolves with the exit code once every worker has exited.
 */
export async function runClusterPrimary(config: Config, logger: Logger): Promise<number> {
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db, { authSecret: config.authSecret });
  } finally {
    await database.close();
  }
  // A scrape of /metrics reaches one worker, which asks the primary for every worker's counts.
  gatherClusterMetrics();
  return superviseWorkers(
    config.webConcurrency,
    logger,
    config.shutdown.delayMs + config.shutdown.timeoutMs + SHUTDOWN_MARGIN_MS,
  );
}

/** `graceMs`: how long the workers have to finish after the primary passed a signal on, before they are killed. */
function superviseWorkers(count: number, logger: Logger, graceMs: number): Promise<number> {
  const running = new Map<Worker, { slot: number; listeningAt?: number }>();
  const policy = new RestartPolicy();
  const pendingReplacements = new Set<NodeJS.Timeout>();
  let stopping: { signal: NodeJS.Signals; exitCode: number } | undefined;
  let forceTimer: NodeJS.Timeout | undefined;

  return new Promise((resolve) => {
    function resolveWhenAllExited(): void {
      if (!stopping || running.size > 0) return;
      clearTimeout(forceTimer);
      logger.info("every worker has exited", { exitCode: stopping.exitCode });
      resolve(stopping.exitCode);
    }

    function fork(slot: number): void {
      // The settings apply to the next fork only: each worker gets its own slot argument.
      cluster.setupPrimary({ args: [...process.argv.slice(2), `${SLOT_ARGUMENT}${slot}`] });
      const worker = cluster.fork();
      running.set(worker, { slot });
      // A signal that cannot be delivered is reported here; without a listener it would end the primary.
      worker.on("error", (error: unknown) =>
        logger.warn("could not signal a worker", { workerPid: worker.process.pid, worker: slot, error }),
      );
    }

    function stop(signal: NodeJS.Signals, exitCode: number): void {
      if (stopping) return;
      stopping = { signal, exitCode };
      for (const timer of pendingReplacements) clearTimeout(timer);
      pendingReplacements.clear();
      logger.info("stopping the workers", { signal, workers: running.size });
      for (const worker of running.keys()) worker.process.kill(signal);
      forceTimer = setTimeout(() => {
        logger.error(`workers still running ${graceMs / 1000} s after ${signal}: killing them`, {
          workerPids: [...running.keys()].map((worker) => worker.process.pid),
        });
        if (stopping) stopping.exitCode = 1;
        for (const worker of running.keys()) worker.process.kill("SIGKILL");
      }, graceMs);
      resolveWhenAllExited();
    }

    cluster.on("listening", (worker) => {
      const entry = running.get(worker);
      if (entry) entry.listeningAt = Date.now();
    });

    cluster.on("exit", (worker, code: number | null, signal: NodeJS.Signals | null) => {
      const entry = running.get(worker);
      if (!entry) return;
      running.delete(worker);
      const fields = { workerPid: worker.process.pid, worker: entry.slot, code, signal };
      if (stopping) {
        // A worker that had not yet installed its own handler ends on the signal itself: that is clean too.
        if (code !== 0 && signal !== stopping.signal) {
          stopping.exitCode = 1;
          logger.warn("a worker did not shut down cleanly", fields);
        }
        resolveWhenAllExited();
        return;
      }
      const delay = policy.afterExit(entry.listeningAt);
      if (delay === null) {
        logger.error(
          `workers keep exiting within ${STARTUP_GRACE_MS / 1000} s of starting (${MAX_FAILED_STARTS} in ${FAILED_START_WINDOW_MS / 1000} s): stopping; the errors above say why`,
          fields,
        );
        stop("SIGTERM", 1);
        return;
      }
      logger.error("a worker exited unexpectedly; starting a replacement", { ...fields, replaceInMs: delay });
      const timer = setTimeout(() => {
        pendingReplacements.delete(timer);
        if (!stopping) fork(entry.slot);
      }, delay);
      pendingReplacements.add(timer);
    });

    process.on("SIGTERM", () => stop("SIGTERM", 0));
    process.on("SIGINT", () => stop("SIGINT", 0));

    logger.info("supervising workers", { workers: count, jobsWorker: JOBS_SLOT });
    for (let slot = 0; slot < count; slot += 1) fork(slot);
  });
}
