import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { LRUCache } from "lru-cache";
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type LogEvent,
  type PostgresPoolClient,
  type SqliteDialectConfig,
} from "kysely";
import { createRequire } from "node:module";
import type pg from "pg";
import type { Config } from "../config";
import { noteDatabaseFailure } from "../request-scope";
import { preparedQuery } from "./prepared";
import type { Database } from "./schema";

export type Dialect = "sqlite" | "postgres";

export type DatabaseHandle = {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Answers when the database does: used by /healthz and /readyz. */
  ping(): Promise<void>;
  /** The PostgreSQL pool's connections (all, idle) and queries waiting for one, for /metrics; SQLite has no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
  /**
   * Whether `close` was called: every statement fails from then on, seen by the request or not (Kysely refuses it
   * before the driver is asked).
   */
  isClosed(): boolean;
};

/**
 * Opens SQLite (WAL, foreign keys on) or a PostgreSQL pool, as `DATABASE_URL` chose. `onQuery` sees each statement's
 * SQL (the query-budget tests count them). `sharedFile`: other processes of this deployment write the same SQLite
 * file (WEB_CONCURRENCY > 1), so transactions take the writer lock first (see WriterFirstSqliteDialect).
 */
export function openDatabase(
  database: Config["database"],
  options: { onQuery?: (sql: string) => void; sharedFile?: boolean } = {},
): DatabaseHandle {
  const { onQuery } = options;
  // Every failed statement marks the request it ran for (server/http/errors.ts asks only then whether the database
  // is down); `onQuery` sees each statement's SQL.
  const log = (event: LogEvent) => (event.level === "error" ? noteDatabaseFailure() : onQuery?.(event.query.sql));
  let closed = false;
  const close = async (db: Kysely<Database>) => {
    closed = true;
    await db.destroy();
  };
  if (database.dialect === "postgres") {
    // The driver is loaded only for PostgreSQL: an instance on SQLite never holds it in memory.
    const { Pool } = createRequire(import.meta.url)("pg") as typeof pg;
    // connectionTimeoutMillis: a server that does not answer the connection (a host gone from the network,
    // a failover in progress) fails the request after 5 s instead of never; it bounds the wait for a free
    // connection too. A refused connection (PostgreSQL stopped) fails at once anyway.
    const pool = new Pool({ connectionString: database.url, max: 10, connectionTimeoutMillis: 5_000 });
    // An idle connection the server ends (restart, failover, an administrator) is reported here; without a
    // listener Node treats it as an uncaught exception and the process dies. The pool opens a new one when
    // it next needs it, and a query that fails still reports its own error.
    pool.on("error", () => undefined);
    // A connection in use but between two statements (inside a transaction) reports the same end on the
    // connection itself, where the pool's listener is not: it would crash the process too. Its next statement
    // fails with the error and the pool discards the broken connection when it is released.
    pool.on("connect", (client) => client.on("error", () => undefined));
    // A connection the pool cannot give (PostgreSQL refusing, or none free within 5 s) marks the request too.
    const connect = async () => {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        noteDatabaseFailure();
        throw error;
      }
      // Each statement goes to the driver as `preparedQuery` says: named when it is marked (server/db/prepared.ts).
      // Kysely's other form of `query`, a cursor, is asked for only when the dialect is given a cursor class; the
      // values it passes are its own copy, handed on as they are.
      const query = (text: string, values?: unknown[]) => client.query(preparedQuery(text, values));
      return { query, release: () => client.release() } as unknown as PostgresPoolClient;
    };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: { connect, end: () => pool.end() } }),
      log,
    });
    return {
      db,
      dialect: "postgres",
      ping: () => sql`select 1`.execute(db).then(() => undefined),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => close(db),
      isClosed: () => closed,
    };
  }
  if (database.file !== ":memory:") mkdirSync(path.dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  // First: switching a new file to WAL takes a lock another process starting at the same time may hold.
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<Database>({
    dialect: new (options.sharedFile ? WriterFirstSqliteDialect : SqliteDialect)({
      database: withStatementCache(sqlite),
    }),
    log,
  });
  return {
    db,
    dialect: "sqlite",
    ping: () => sql`select 1`.execute(db).then(() => undefined),
    close: () => close(db),
    isClosed: () => closed,
  };
}

/** How long a statement waits for another connection's lock on the file before it fails with SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;
/** How often a transaction asks again for the writer lock while another connection holds it. */
const WRITER_LOCK_RETRY_MS = 10;

/**
 * Transactions begin with `BEGIN IMMEDIATE`: they take SQLite's writer lock first. Kysely's plain `BEGIN` reads
 * first and asks for the lock at the first write; if another process (WEB_CONCURRENCY) wrote in between, that write
 * fails at once with SQLITE_BUSY, and busy_timeout does not help. The wait for the lock is asynchronous (asked
 * again every few milliseconds, up to busy_timeout): better-sqlite3's own wait blocks the event loop, and when the
 * holder is another connection of the same process (two app instances on one file, as tests run them) it could
 * never finish its transaction. Only where other processes share the file: the writer lock taken early held up a
 * single process's sign-ups for as long as a backup of the file ran (server/db/backup.int.test.ts).
 */
class WriterFirstSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver() {
    return new WriterFirstSqliteDriver(this.#config);
  }
}

class WriterFirstSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    await connection.executeQuery(CompiledQuery.raw("pragma busy_timeout = 0"));
    try {
      for (;;) {
        try {
          await connection.executeQuery(CompiledQuery.raw("begin immediate"));
          return;
        } catch (error) {
          if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, WRITER_LOCK_RETRY_MS));
        }
      }
    } finally {
      await connection.executeQuery(CompiledQuery.raw(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`));
    }
  }
}

/** Distinct statements kept compiled; the app issues a few hundred shapes. */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely prepares each query it runs: compiling the
 * same SQL again took a fifth of an indexed search's time. Statements are kept by their SQL and reused (SQLite
 * recompiles one by itself when the schema changes); one still running (a streamed read) is not handed out twice.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new LRUCache<string, SQLite.Statement>({ max: STATEMENT_CACHE_SIZE });
  return {
    prepare(query: string) {
      const cached = statements.get(query);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(query);
      statements.set(query, statement);
      return statement;
    },
    close: () => sqlite.close(),
  };
}

/** SQLite hands dates back as strings, PostgreSQL as Date objects: one conversion for both. */
export function toIsoString(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
