import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { freePort } from "./free-port";
import { waitFor } from "./factories";

/** A Redis server of a test's own, which it may kill and start again on the same port; the shared one must never be. */
export type PrivateRedis = {
  port: number;
  url: string;
  /** Starts it again (on the same port) and waits until it answers PING. */
  start(): Promise<void>;
  /** Kills it (SIGKILL: Redis gone, as a crash or a network cut leaves it) and waits for the exit. */
  stop(): Promise<void>;
  /** Whether it is running. */
  isRunning(): boolean;
};

/** Whether a Redis at `port` answers PING with PONG. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

/** Starts redis-server on a free port of 127.0.0.1, in memory only (no snapshot, no append-only file). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const handle: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    isRunning,
    async start() {
      if (isRunning()) return;
      const started = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        {
          stdio: "ignore",
        },
      );
      child = started;
      await waitFor(
        async () => {
          if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode}) on port ${port}`);
          return answersPing(port);
        },
        { timeoutMs: 10_000, what: `redis-server to answer on port ${port}` },
      );
    },
    async stop() {
      const running = child;
      if (!running || !isRunning()) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGKILL");
      await exited;
    },
  };
  await handle.start();
  return handle;
}
