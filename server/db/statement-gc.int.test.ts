import { spawn } from "node:child_process";
import { expect, test } from "vitest";

/**
 * Prepares thousands of statements and lets the garbage collector take them, on the main thread and in a worker
 * that exits with its statements still alive (a test worker, a WEB_CONCURRENCY process shutting down). On Node
 * 24.19+ better-sqlite3 12 aborted the process here (`Assertion failed: (env) != nullptr` in its statement
 * destructor, nodejs/node#65446): it runs in a process of its own, on the Node running the tests, so an abort is
 * reported as one instead of ending the test worker.
 */
const CHURN = `
  const { Worker, isMainThread } = require("node:worker_threads");
  const SQLite = require("better-sqlite3");
  const database = new SQLite(":memory:");
  database.exec("create table entry (id integer primary key, body text not null)");
  (async () => {
    // The same script, given again as the first argument, in a worker thread.
    const worker = isMainThread ? new Worker(process.argv[1], { eval: true }) : undefined;
    // Listened for from the start: a worker that finishes first must not leave the main thread waiting on nothing.
    const workerExit = worker && new Promise((resolve) => worker.once("exit", resolve));
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 250; i++) {
        database.prepare("insert into entry (body) values (?)").run(String(i));
        database.prepare("select count(*) as n from entry where id > " + i).get();
        for (const row of database.prepare("select id from entry limit 2").iterate()) void row;
      }
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (!isMainThread) return;
    await workerExit;
    database.close();
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    console.log("done");
  })();
`;

test("statements collected, and statements alive when their thread exits, do not abort the process", async () => {
  const child = spawn(process.execPath, ["--expose-gc", "-e", CHURN, CHURN], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  expect({ code, signal, output }).toEqual({ code: 0, signal: null, output: "done\n" });
});
