type Work<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Runs `work` for at most `ms` milliseconds: its signal aborts then, and the result rejects with `new Error(message)`
 * at that moment even when the work ignores the signal (a driver call that takes none). A function for `message` is
 * called only when the time is up (to describe what was seen until then).
 *
 * When the time is up, the answers already at the sockets are read first (one more turn of the event loop): a process
 * starved of CPU finds its timer and the answer due at once, and reading the timer first would report a timeout that
 * is only its own slowness (the database probe's test in server/http/errors.test.ts).
 */
export async function withTimeout<T>(ms: number, message: string | (() => string), work: Work<T>): Promise<T> {
  const controller = new AbortController();
  const describe = typeof message === "string" ? () => message : message;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        setImmediate(() => {
          // Rejected before the abort, so the timeout's own error wins over whatever the work rejects with on abort.
          reject(new Error(describe()));
          controller.abort();
        }),
      ms,
    );
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
