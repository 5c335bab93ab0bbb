type Work<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Runs `work` for at most `ms` milliseconds: its signal (`AbortSignal.timeout`) aborts then, and the result rejects
 * with `new Error(message)` at that moment even when the work ignores the signal (a driver call that takes none).
 * A function for `message` is called only when the time is up (to describe what was seen until then).
 */
export async function withTimeout<T>(ms: number, message: string | (() => string), work: Work<T>): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  const describe = typeof message === "string" ? () => message : message;
  // Listening before the work starts, so the timeout's own error wins over whatever the work rejects with on abort.
  const timedOut = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(new Error(describe())), { once: true });
  });
  return await Promise.race([work(signal), timedOut]);
}
