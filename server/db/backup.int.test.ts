import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import SQLite from "better-sqlite3";
import { Migrator, sql, type Kysely } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../config";
import {
  buildUser,
  createOrganizationWithOwner,
  createVerifiedUser,
  getSession,
  signInOnNewClient,
  waitFor,
  addMember,
  type TestUser,
} from "../test/factories";
import { createClient, randomIp } from "../test/request";
import { inheritedEnvironment, startServerProcess, type ServerProcess } from "../test/server-process";
import {
  createTestApp,
  createTestDatabase,
  testEnvironment,
  type TestApp,
  type TestDatabase,
} from "../test/test-database";
import { formatBytes } from "./backup";
import { openDatabase } from "./database";
import { migrateToLatest, migrations } from "./migrate";
import type { Database } from "./schema";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

type CliResult = { code: number | null; stdout: string; stderr: string };

/** Runs the commands behind `npm run db:backup` / `db:restore` from source (through tsx) on a test database. */
function runCli(command: "backup" | "restore", args: string[], database: TestDatabase): Promise<CliResult> {
  const child = spawn(process.execPath, ["--import", "tsx", `server/db/${command}-cli.ts`, ...args], {
    cwd: root,
    env: {
      ...inheritedEnvironment(),
      NODE_ENV: "test",
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      BILLING_SANDBOX: "false",
      DEV_IDENTITY_PROVIDER: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The database as the commands name it: the SQLite file, or the PostgreSQL URL (the test URLs carry no password). */
function targetOf(database: TestDatabase): string {
  return database.dialect === "sqlite" ? path.resolve(database.url) : database.url;
}

const TABLES = ["user", "account", "session", "organization", "member", "team", "teamMember", "invitation"];

/** Every row of the tables a round trip must bring back, in a stable order. */
async function snapshot(db: Kysely<Database>): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of TABLES) rows[table] = (await sql`select * from ${sql.table(table)} order by id`.execute(db)).rows;
  return rows;
}

/** PostgreSQL closes a destroyed pool's connections in the background: a restore right after would see them. */
async function waitUntilUnused(database: TestDatabase): Promise<void> {
  if (database.dialect !== "postgres") return;
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const name = new URL(database.url).pathname.slice(1);
    await waitFor(
      async () =>
        (
          await client.query<{ count: number }>(
            "select count(*)::int as count from pg_stat_activity where datname = $1",
            [name],
          )
        ).rows[0]?.count === 0,
      { what: `the connections to ${name} to close` },
    );
  } finally {
    await client.end();
  }
}

describe("npm run db:backup and db:restore", () => {
  let database: TestDatabase;
  let app: TestApp | undefined;
  let restoredApp: TestApp | undefined;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let backupFile: string;
  let atBackup: Record<string, unknown[]>;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createTestApp({ database });
    alice = await createVerifiedUser(app, { label: "Alice" });
    bob = await createVerifiedUser(app, { label: "Bob" });
    const organization = await createOrganizationWithOwner(alice, "Backup Org");
    await addMember(alice, organization.id, bob);
  });

  afterAll(async () => {
    await app?.close();
    await restoredApp?.close();
    await database?.drop();
  });

  test("db:backup writes a timestamped file under DATA_DIR/backups and prints its path and size", async () => {
    atBackup = await snapshot(app!.db);
    expect(atBackup.member).toHaveLength(2);

    const result = await runCli("backup", [], database);

    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const printed = /^Backed up (.+) to (.+) \((.+)\)\.\n$/.exec(result.stdout);
    expect(printed, result.stdout).not.toBeNull();
    const [, target, file, size] = printed as unknown as [string, string, string, string];
    expect(target).toBe(targetOf(database));
    const extension = database.dialect === "sqlite" ? "sqlite" : "dump";
    expect(file).toMatch(
      new RegExp(`^${database.dataDir}/backups/atrium-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.${extension}$`),
    );
    expect(size).toBe(formatBytes(statSync(file).size));
    // Only the finished file: no partial copy is left beside it.
    expect(readdirSync(path.join(database.dataDir, "backups"))).toEqual([path.basename(file)]);
    backupFile = file;
  });

  test("db:backup refuses to overwrite a file and answers bad usage with 2", async () => {
    expect(await runCli("backup", [backupFile], database)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${backupFile} already exists: choose another file name\n`,
    });
    const usage = { code: 2, stdout: "", stderr: "Usage: npm run db:backup [-- FILE]\n" };
    expect(await runCli("backup", ["one.sqlite", "two.sqlite"], database)).toEqual(usage);
    expect(await runCli("backup", ["--force"], database)).toEqual(usage);
  });

  test("db:restore without --yes says what it would replace, exits 2 and changes nothing", async () => {
    // The data moves on after the backup: Bob leaves, Carol arrives.
    await app!.db.deleteFrom("user").where("id", "=", bob.id).execute();
    carol = await createVerifiedUser(app!, { label: "Carol" });
    const before = await snapshot(app!.db);
    expect(before).not.toEqual(atBackup);

    expect(await runCli("restore", [backupFile], database)).toEqual({
      code: 2,
      stdout: "",
      stderr: `Restoring replaces all data in ${targetOf(database)} with the backup's. Stop every server using it, then run again with --yes: npm run db:restore -- ${backupFile} --yes\n`,
    });
    const usage = { code: 2, stdout: "", stderr: "Usage: npm run db:restore -- FILE --yes\n" };
    expect(await runCli("restore", [], database)).toEqual(usage);
    expect(await runCli("restore", [backupFile, "--force"], database)).toEqual(usage);
    expect(await snapshot(app!.db)).toEqual(before);
  });

  test("db:restore of a missing, wrong-kind or damaged file fails with one line and changes nothing", async () => {
    const before = await snapshot(app!.db);
    const missing = path.join(database.dataDir, "backups", "missing.sqlite");
    expect(await runCli("restore", [missing, "--yes"], database)).toEqual({
      code: 1,
      stdout: "",
      stderr: `No backup file at ${missing}\n`,
    });

    const text = path.join(database.dataDir, "notes.txt");
    writeFileSync(text, "not a backup\n");
    const needed =
      database.dialect === "sqlite"
        ? "a SQLite database (DATABASE_URL names a SQLite file)"
        : "a pg_dump custom-format archive (DATABASE_URL is PostgreSQL)";
    expect(await runCli("restore", [text, "--yes"], database)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${text} is neither a SQLite database nor a PostgreSQL dump; restoring needs ${needed}\n`,
    });

    const otherKind = path.join(database.dataDir, "other-kind");
    writeFileSync(
      otherKind,
      database.dialect === "sqlite" ? "PGDMP\u0001\u000e\u0000" : "SQLite format 3\u0000 and more",
    );
    const found = database.dialect === "sqlite" ? "a PostgreSQL dump" : "a SQLite database";
    expect(await runCli("restore", [otherKind, "--yes"], database)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${otherKind} is ${found}; restoring needs ${needed}\n`,
    });

    // The first quarter of a real backup: the right kind, but not whole.
    const damaged = path.join(database.dataDir, "damaged");
    writeFileSync(damaged, readFileSync(backupFile).subarray(0, Math.floor(statSync(backupFile).size / 4)));
    expect(await runCli("restore", [damaged, "--yes"], database)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        database.dialect === "sqlite"
          ? `${damaged} cannot be read as a SQLite database: database disk image is malformed\n`
          : `${damaged} cannot be read as a pg_dump archive (exit code 1): pg_restore: error: could not read from input file: end of file\n`,
    });

    expect(await snapshot(app!.db)).toEqual(before);
  });

  test("db:restore refuses a backup made by a newer version (a migration this one does not know)", async () => {
    const migrationTable = sql.table("kysely_migration");
    await sql`insert into ${migrationTable} (name, timestamp) values ('9999-from-the-future', ${new Date().toISOString()})`.execute(
      app!.db,
    );
    const future = path.join(
      database.dataDir,
      "backups",
      `future.${database.dialect === "sqlite" ? "sqlite" : "dump"}`,
    );
    expect((await runCli("backup", [future], database)).code).toBe(0);
    await sql`delete from ${migrationTable} where name = '9999-from-the-future'`.execute(app!.db);
    const before = await snapshot(app!.db);

    expect(await runCli("restore", [future, "--yes"], database)).toEqual({
      code: 1,
      stdout: "",
      stderr: `${future} was made by a newer version of Atrium (migrations 9999-from-the-future are unknown here): restore it with that version\n`,
    });
    expect(await snapshot(app!.db)).toEqual(before);
  });

  test("db:restore refuses while a server has the database open", async () => {
    // The app is still running: its connection (SQLite) or pool (PostgreSQL) is open.
    const before = await snapshot(app!.db);
    const result = await runCli("restore", [backupFile, "--yes"], database);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    if (database.dialect === "sqlite") {
      expect(result.stderr).toBe(
        `${targetOf(database)} is in use by another process (a running server?): stop every server using it, then restore\n`,
      );
    } else {
      expect(result.stderr).toMatch(
        new RegExp(
          `^${targetOf(database)} is in use: \\d+ other connections? (is|are) open \\(a running server\\?\\): stop every server using it, then restore\\n$`,
        ),
      );
    }
    expect(await snapshot(app!.db)).toEqual(before);
  });

  test("db:restore --yes brings back exactly the data of the backup, and its users sign in again", async () => {
    // What a newer version would have added since the backup: gone after the restore, so its migration can run again.
    await sql`create table later_table (id integer)`.execute(app!.db);
    await app!.close();
    app = undefined;
    await waitUntilUnused(database);

    expect(await runCli("restore", [backupFile, "--yes"], database)).toEqual({
      code: 0,
      stdout: `Restored ${targetOf(database)} from ${backupFile}. Start the servers again.\n`,
      stderr: "",
    });

    restoredApp = await createTestApp({ database });
    expect(await snapshot(restoredApp.db)).toEqual(atBackup);
    await expect(sql`select * from later_table`.execute(restoredApp.db)).rejects.toThrow(/later_table/);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      restoredApp.db,
    );
    expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations));

    const bobAgain = await signInOnNewClient(restoredApp, bob.input);
    expect((await getSession(bobAgain))?.user.email).toBe(bob.email);
    const carolSignIn = await createClient(restoredApp).post("/api/auth/sign-in/email", {
      email: carol.email,
      password: carol.input.password,
    });
    expect(carolSignIn.status).toBe(401);
  });
});

describe("a backup of an older version", () => {
  let older: TestDatabase;
  let newer: TestDatabase;

  beforeAll(async () => {
    [older, newer] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });

  afterAll(async () => {
    await older?.drop();
    await newer?.drop();
  });

  test("restores into this version's database, and the app applies the migrations it lacks at start", async () => {
    const names = Object.keys(migrations);
    const [latest, previous] = [names.at(-1)!, names.at(-2)!];
    const handle = openDatabase(loadConfig(testEnvironment(older)).database);
    try {
      const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    } finally {
      await handle.close();
    }
    const file = path.join(older.dataDir, `older.${older.dialect === "sqlite" ? "sqlite" : "dump"}`);
    expect((await runCli("backup", [file], older)).code).toBe(0);
    // The database it goes into is this version's, every migration applied (the objects of the latest among them).
    const current = await createTestApp({ database: newer });
    await current.close();
    await waitUntilUnused(newer);

    expect(await runCli("restore", [file, "--yes"], newer)).toEqual({
      code: 0,
      stdout: `Restored ${targetOf(newer)} from ${file}. The backup lacks migrations ${latest}: the app applies them when it starts (or run npm run db:migrate). Start the servers again.\n`,
      stderr: "",
    });
    const restarted = await createTestApp({ database: newer });
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        restarted.db,
      );
      expect(applied.rows.map((row) => row.name)).toEqual(names);
      const user = await createVerifiedUser(restarted, { label: "After upgrade" });
      expect((await getSession(user.client))?.user.email).toBe(user.email);
    } finally {
      await restarted.close();
    }
  });
});

describe("a backup taken while a server process writes", () => {
  const PADDING_ROWS = 1_500;
  let source: TestDatabase;
  let copy: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    [source, copy] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    // Some megabytes, so the copy takes a while rather than an instant.
    const handle = openDatabase(loadConfig(testEnvironment(source)).database);
    try {
      await migrateToLatest(handle.db, { authSecret: null });
      await sql`create table backup_padding (id integer primary key, data text not null)`.execute(handle.db);
      await handle.db.transaction().execute(async (trx) => {
        for (let id = 1; id <= PADDING_ROWS; id += 1) {
          await sql`insert into backup_padding (id, data) values (${id}, ${randomBytes(5_000).toString("hex")})`.execute(
            trx,
          );
        }
      });
    } finally {
      await handle.close();
    }
  });

  afterAll(async () => {
    await server?.stop();
    await source?.drop();
    await copy?.drop();
  });

  test("is a complete, consistent database", { timeout: 120_000 }, async () => {
    server = await startServerProcess({
      name: "writer",
      env: { DATABASE_URL: source.url, DATA_DIR: source.dataDir, AUTH_SECRET: randomBytes(32).toString("base64url") },
    });
    const url = server.url;
    let signedUp = 0;
    let isWriting = true;
    const failures: string[] = [];
    // Four clients signing up one user after another: each sign-up writes a user, an account and a queued mail.
    const writers = Array.from({ length: 4 }, async () => {
      while (isWriting) {
        const response = await fetch(`${url}/api/auth/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url, "x-forwarded-for": randomIp() },
          body: JSON.stringify(buildUser({ label: "Writer" })),
          signal: AbortSignal.timeout(20_000),
        });
        if (response.status === 200) signedUp += 1;
        else failures.push(`${response.status} ${await response.text()}`);
      }
    });
    await waitFor(() => signedUp >= 3, { timeoutMs: 30_000, what: "the first sign-ups" });

    const file = path.join(
      source.dataDir,
      "backups",
      `during-writes.${source.dialect === "sqlite" ? "sqlite" : "dump"}`,
    );
    // Four sign-ups are in flight at every moment of the backup. Whether one of them also finishes within it
    // depends on the machine's load (a loaded machine finished none during a quick backup): what must hold is that
    // the server goes on writing, without a failure, once the backup is taken.
    const before = signedUp;
    const backup = await runCli("backup", [file], source);
    const after = signedUp;
    await waitFor(() => signedUp > after, { timeoutMs: 30_000, what: "a sign-up after the backup" });
    isWriting = false;
    await Promise.all(writers);
    await server.stop();

    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(failures).toEqual([]);

    if (source.dialect === "sqlite") {
      const backupDatabase = new SQLite(file, { readonly: true });
      try {
        expect(backupDatabase.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        backupDatabase.close();
      }
    }
    // The backup restores into an empty database, whole: every migration, every padding row, the users of one moment.
    expect((await runCli("restore", [file, "--yes"], copy)).code).toBe(0);
    const restored = openDatabase(loadConfig(testEnvironment(copy)).database);
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(restored.db);
      expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations));
      const padding = await sql<{ count: number | string }>`select count(*) as count from backup_padding`.execute(
        restored.db,
      );
      expect(Number(padding.rows[0]?.count)).toBe(PADDING_ROWS);
      const users = Number(
        (
          await restored.db
            .selectFrom("user")
            .select(({ fn }) => fn.countAll().as("count"))
            .executeTakeFirstOrThrow()
        ).count,
      );
      expect(users).toBeGreaterThanOrEqual(before);
      expect(users).toBeLessThanOrEqual(after + 4);
    } finally {
      await restored.close();
    }
  });
});
