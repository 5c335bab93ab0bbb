import { describe, expect, test } from "vitest";
import { createLogger } from "../logger";
import { startPollingLoop } from "./polling-loop";

describe("startPollingLoop", () => {
  test("stop aborts the running run's signal and waits for that run to finish; no run starts after it", async () => {
    let finishRun!: () => void;
    const signals: AbortSignal[] = [];
    const loop = startPollingLoop(
      "test loop",
      (stopping) => {
        signals.push(stopping);
        return new Promise<void>((resolve) => (finishRun = resolve));
      },
      { logger: createLogger("silent"), pollMs: 60_000 },
    );
    loop.nudge();
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);

    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    // Not a sleep: nothing here waits on a timer, so a stop that did not wait for the run would be done once the
    // promises already queued have run, which is before the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(signals[0]!.aborted).toBe(true);
    expect(stopped).toBe(false);

    finishRun();
    await stopping;
    expect(stopped).toBe(true);
    loop.nudge();
    expect(signals).toHaveLength(1);
  });
});
