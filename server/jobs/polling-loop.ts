import type { Logger } from "../logger";

export type PollingLoop = { nudge(): void; drain(): Promise<void>; stop(): Promise<void> };

/**
 * Runs `runOnce` every `pollMs`, and at once when nudged, never twice at the same time: a nudge during a run
 * asks for one more run after it. A failing run is logged and the loop goes on. The workers are built on it.
 * `stop` waits for the run under way, whose `stopping` signal is aborted at once: a run working through a batch
 * finishes the item it is on (the mail being sent) and leaves the rest for the next start.
 */
export function startPollingLoop(
  name: string,
  runOnce: (stopping: AbortSignal) => Promise<void>,
  deps: { logger: Logger; pollMs: number },
): PollingLoop {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const stopping = new AbortController();

  function tick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = runOnce(stopping.signal)
      .catch((error: unknown) =>
        deps.logger.error(`${name} failed`, { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void tick();
        }
      });
    return running;
  }

  const timer = setInterval(() => void tick(), deps.pollMs);
  timer.unref();
  return {
    nudge: () => void tick(),
    async drain() {
      await tick();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      while (running) await running;
    },
  };
}

/**
 * The loop of a process that runs no background jobs (a cluster worker other than the jobs one): a nudge does
 * nothing, and the work it would have started waits for the jobs worker's next poll.
 */
export const idlePollingLoop: PollingLoop = {
  nudge: () => undefined,
  drain: async () => undefined,
  stop: async () => undefined,
};
