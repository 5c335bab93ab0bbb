import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import { afterAll, expect, test } from "vitest";
import { openDatabase } from "./database";

const directory = mkdtempSync(path.join(tmpdir(), "atrium-sqlite-transactions-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/**
 * Another process on the same file (a second WEB_CONCURRENCY worker), played by a thread with a connection of its
 * own: it inserts one row, waiting up to 5 s for the writer lock as the app's connections do.
 */
function writeFromAnotherConnection(file: string): { started: Promise<void>; done: Promise<void> } {
  const worker = new Worker(
    `const { workerData, parentPort } = require("node:worker_threads");
     const SQLite = require("better-sqlite3");
     const database = new SQLite(workerData.file);
     database.pragma("busy_timeout = 5000");
     parentPort.postMessage("started");
     database.prepare("insert into entry (source) values ('other')").run();
     database.close();`,
    { eval: true, workerData: { file } },
  );
  const started = new Promise<void>((resolve) => worker.once("message", () => resolve()));
  const done = new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the other writer exited ${code}`))));
  });
  return { started, done };
}

test("a transaction that reads, then writes, is not refused because another process wrote in between", async () => {
  const file = path.join(directory, "race.sqlite");
  const database = openDatabase({ dialect: "sqlite", file }, { sharedFile: true });
  await sql`create table entry (id integer primary key, source text not null)`.execute(database.db);

  let other: ReturnType<typeof writeFromAnotherConnection> | undefined;
  await database.db.transaction().execute(async (transaction) => {
    await sql`select count(*) from entry`.execute(transaction);
    other = writeFromAnotherConnection(file);
    await other.started;
    // With a plain BEGIN the other insert lands here, and the write below fails with SQLITE_BUSY at once. With the
    // writer lock taken first, the other insert waits for this commit.
    await Promise.race([other.done, new Promise((resolve) => setTimeout(resolve, 500))]);
    await sql`insert into entry (source) values ('transaction')`.execute(transaction);
  });
  await other!.done;

  const rows = await sql<{ source: string }>`select source from entry order by id`.execute(database.db);
  expect(rows.rows.map((row) => row.source)).toEqual(["transaction", "other"]);
  await database.close();
});
