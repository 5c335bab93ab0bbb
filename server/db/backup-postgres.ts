import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import type pg from "pg";
import { BackupError } from "./backup-error";

/**
 * PostgreSQL backups are pg_dump's custom-format archives, restored by pg_restore: both are spawned, never given
 * the password on their command line (it goes in PGPASSWORD), and their error output is passed on with any
 * password taken out.
 */

/** The URL without its password, for messages. */
export function describePostgres(url: string): string {
  return connectionOf(url).url;
}

/** `pg_dump --format=custom` of the database into `destination`. */
export async function backupPostgres(url: string, destination: string): Promise<void> {
  const connection = connectionOf(url);
  await run("pg_dump", ["--format=custom", `--file=${destination}`, `--dbname=${connection.url}`], connection);
}

/**
 * Checks that `file` is a pg_dump archive pg_restore can read and that it holds an Atrium database, and returns the
 * migrations applied to it (the rows of its kysely_migration table, read from the archive without a database).
 */
export async function readPostgresBackup(file: string): Promise<string[]> {
  const script = await run(
    "pg_restore",
    ["--data-only", "--table=kysely_migration", "--file=-", file],
    null,
    `${file} cannot be read as a pg_dump archive`,
  );
  const copy = /^COPY \S+ \([^)]*\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(script);
  if (!copy)
    throw new BackupError(`${file} is a pg_dump archive but not an Atrium backup (it has no kysely_migration table)`);
  return copy[1]!
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split("\t")[0]!)
    .sort();
}

/**
 * The archive's script (`pg_restore --clean --if-exists --no-owner`: every object of the archive dropped and
 * recreated) run by psql in one transaction that stops at the first error, so a failed restore changes nothing.
 * Refuses while other clients (a running server) are connected. Objects the archive does not have (tables of
 * migrations newer than the backup) would survive that and break those migrations when the app applies them again
 * at its next start, and their foreign keys would keep the archive's tables from being dropped: the same transaction
 * drops them first.
 */
export async function restorePostgres(file: string, url: string): Promise<void> {
  const connection = connectionOf(url);
  const archived = archivedObjects(await run("pg_restore", ["--list", file], null));
  const drops = await withClient(url, async (client) => {
    const { rows } = await client.query<{ count: number }>(
      "select count(*)::int as count from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'",
    );
    const others = rows[0]?.count ?? 0;
    if (others > 0) {
      throw new BackupError(
        `${connection.url} is in use: ${others} other connection${others === 1 ? " is" : "s are"} open (a running server?): stop every server using it, then restore`,
      );
    }
    return dropsOfObjectsNotIn(client, archived);
  });
  const script = start(
    "pg_restore",
    ["--clean", "--if-exists", "--no-owner", "--file=-", file],
    connection,
    "pg_restore failed",
    true,
  );
  script.stdin.end();
  const psql = start(
    "psql",
    [
      "--no-psqlrc",
      "--quiet",
      "--set=ON_ERROR_STOP=1",
      "--single-transaction",
      "--file=-",
      `--dbname=${connection.url}`,
    ],
    connection,
    "pg_restore failed",
  );
  psql.stdin.on("error", () => undefined); // psql stopped at an error: its own failure says why
  psql.stdin.write(drops.join(""));
  script.stdout.pipe(psql.stdin);
  const [restored, written] = await Promise.allSettled([psql.done, script.done]);
  if (restored.status === "rejected") throw restored.reason as Error;
  if (written.status === "rejected") throw written.reason as Error;
}

type ArchivedObjects = { schemas: string[]; relations: Set<string>; functions: Set<string> };

/** The schemas, relations and functions named in the archive's table of contents (`pg_restore --list`). */
function archivedObjects(list: string): ArchivedObjects {
  const schemas = new Set<string>();
  const relations = new Set<string>();
  const functions = new Set<string>();
  // `215; 1259 16390 TABLE public user postgres`, `270; 1255 16744 FUNCTION public f(integer) postgres`; not the
  // entries of their data or ownership (`TABLE DATA`, `SEQUENCE SET`).
  for (const match of list.matchAll(
    /^\d+; \d+ \d+ (TABLE|VIEW|MATERIALIZED VIEW|SEQUENCE|FUNCTION) (\S+) ([^\s(]+)(?:\(.*\))? \S*$/gm,
  )) {
    const [, type, schema, name] = match as unknown as [string, string, string, string];
    schemas.add(schema);
    (type === "FUNCTION" ? functions : relations).add(`${schema}.${name}`);
  }
  return { schemas: [...schemas], relations, functions };
}

/**
 * The statements that drop the tables, views, sequences and functions of the archive's schemas that the archive does
 * not have (extensions' own excepted).
 */
async function dropsOfObjectsNotIn(client: pg.Client, archived: ArchivedObjects): Promise<string[]> {
  const relations = await client.query<{ schema: string; name: string; kind: string }>(
    `select n.nspname as schema, c.relname as name, c.relkind as kind
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'S')
       and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('e', 'a', 'i'))`,
    [archived.schemas],
  );
  const keywords: Record<string, string> = { r: "table", p: "table", v: "view", m: "materialized view", S: "sequence" };
  const functions = await client.query<{ schema: string; name: string; signature: string }>(
    `select n.nspname as schema, p.proname as name, p.oid::regprocedure::text as signature
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname = any($1) and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    [archived.schemas],
  );
  return [
    ...relations.rows
      .filter((relation) => !archived.relations.has(`${relation.schema}.${relation.name}`))
      .map(
        (relation) =>
          `drop ${keywords[relation.kind]} if exists ${quote(relation.schema)}.${quote(relation.name)} cascade;\n`,
      ),
    ...functions.rows
      .filter((fn) => !archived.functions.has(`${fn.schema}.${fn.name}`))
      .map((fn) => `drop function if exists ${fn.signature} cascade;\n`),
  ];
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

type Connection = { url: string; password: string };

/** The libpq connection string without its password, and the password apart (for PGPASSWORD). */
function connectionOf(url: string): Connection {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { url: parsed.toString(), password };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  // The driver is loaded only for PostgreSQL, as openDatabase does.
  const { Client } = createRequire(import.meta.url)("pg") as typeof pg;
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(
      `Cannot connect to ${describePostgres(url)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

type Tool = "pg_dump" | "pg_restore" | "psql";

/** Runs a PostgreSQL client tool and resolves with its standard output (see `start`). */
function run(command: Tool, args: string[], connection: Connection | null, failure?: string): Promise<string> {
  const tool = start(command, args, connection, failure);
  tool.stdin.end();
  return tool.done;
}

/**
 * Starts a PostgreSQL client tool; `done` resolves with its standard output once it exits 0. A tool that is missing
 * or fails becomes a BackupError with its error output on one line (`failure` starts the message, the command line
 * by default). With `piped`, its standard output is left to the caller (a restore script is not kept in memory).
 */
function start(
  command: Tool,
  args: string[],
  connection: Connection | null,
  failure = `${command} failed`,
  piped = false,
) {
  const env = { ...process.env, ...(connection?.password ? { PGPASSWORD: connection.password } : {}) };
  const redact = (text: string) => (connection?.password ? text.replaceAll(connection.password, "***") : text);
  const child = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const done = new Promise<string>((resolve, reject) => {
    if (!piped) child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `${command} was not found on PATH: install the PostgreSQL client tools (the same major version as the server or newer)`
            : `${command} could not be started: ${error.message}`,
        ),
      );
    });
    child.on("close", (code) => {
      if (code === 0) return resolve(Buffer.concat(stdout).toString("utf8"));
      const output = Buffer.concat(stderr)
        .toString("utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
        .join(" / ");
      reject(new BackupError(redact(`${failure} (exit code ${code}): ${output || "no error output"}`)));
    });
  });
  return { stdin: child.stdin, stdout: child.stdout, done };
}
