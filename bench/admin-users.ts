// `npm run bench:admin-users`: times the platform-admin users list (the admin module's `listUsers`, in-process: the time the server
// spends) on 100,000 users, on a fresh SQLite file in a temp folder, or on a fresh PostgreSQL database created on
// the server DATABASE_URL names (postgres://…) and dropped afterwards. Each scenario runs alone, then the search
// scenarios also with 10 callers at once (a server's 10 connections: on SQLite they queue on its one connection, on
// PostgreSQL they share the cores). Exits 1 when a scenario's p95 alone, or a search scenario's p99 with 10 callers,
// reaches 50 ms.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql, type Insertable } from "kysely";
import pg from "pg";
import { adminUserListQuerySchema } from "../common/admin.schemas";
import { openDatabase, type DatabaseHandle } from "../server/db/database";
import { migrateToLatest } from "../server/db/migrate";
import type { Database } from "../server/db/schema";
import { listUsers } from "../server/modules/admin";

const USERS = 100_000;
const WARM_UPS = 5;
const RUNS = 100;
/** Callers at once, and calls each makes, for the search scenarios. */
const CALLERS = 10;
const RUNS_PER_CALLER = 20;
const BUDGET_MS = 50;
const BATCH = 500;

const FIRST_NAMES = (
  "James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Charles " +
  "Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua " +
  "Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura " +
  "Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon " +
  "Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra Patrick Rachel Frank Carolyn Raymond Janet Jack Maria Dennis " +
  "Olivia Jerry Heather Tyler Aarav Wei Yuki Fatima Mohammed Sofia Lucas Chloé Björn Zoë Mateo Priya Hiroshi Ngozi Santiago Ingrid"
).split(" ");
const LAST_NAMES = (
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore " +
  "Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill " +
  "Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins " +
  "Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward " +
  "Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Müller Schmidt Dubois Rossi Kowalski Novak Yamamoto Chen Wang Singh Patel " +
  "Okafor Silva Jensen O'Brien"
).split(" ");
/** One user in a thousand has one of these: what an admin searching for a particular person types. */
const RARE_LAST_NAMES = "Okonkwo-Ridley Vanterpool Zbikowski Quattlebaum Przybylski Featherstonehaugh Wojciechowska Ekwueme".split(" ");
const DOMAINS = (
  "gmail.com gmail.com gmail.com outlook.com outlook.com yahoo.com icloud.com proton.me hey.com fastmail.com acme-corp.example globex.example " +
  "initech.example umbrella.example stark.example"
).split(" ");

const INITIALS = [..."ABCDEFGHJKLMNPRSTW"];

/** A seeded generator, so every run measures the same users. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const next = random(20_240_601);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const chance = (probability: number) => next() < probability;
const ID_CHARACTERS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"];
/** Shaped like better-auth's ids: 32 random letters and digits. */
const newId = () => Array.from({ length: 32 }, () => pick(ID_CHARACTERS)).join("");
/** Lowercase ASCII, as people type names into addresses. */
const slug = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();

function unique(taken: Set<string>, candidate: string, suffix: () => string): string {
  let value = candidate;
  while (taken.has(value)) value = `${candidate}${suffix()}`;
  taken.add(value);
  return value;
}

function buildUsers(count: number, dialect: DatabaseHandle["dialect"], now: number): Array<Insertable<Database["user"]>> {
  const bool = (value: boolean) => (dialect === "postgres" ? value : Number(value));
  const emails = new Set<string>();
  const usernames = new Set<string>();
  const twoYears = 2 * 365 * 86_400_000;
  return Array.from({ length: count }, () => {
    const first = pick(FIRST_NAMES);
    const last = chance(0.001) ? pick(RARE_LAST_NAMES) : pick(LAST_NAMES);
    const name = chance(0.1) ? `${first} ${pick(INITIALS)}. ${last}` : `${first} ${last}`;
    const local = pick([`${slug(first)}.${slug(last)}`, `${slug(first)[0]}${slug(last)}`, `${slug(first)}_${slug(last)}`, `${slug(first)}${slug(last)}`]);
    const email = unique(emails, `${local}${chance(0.3) ? Math.floor(next() * 100) : ""}@${pick(DOMAINS)}`, () => String(Math.floor(next() * 10_000)));
    const username = chance(2 / 3)
      ? unique(usernames, pick([`${slug(first)}${slug(last)}`, `${slug(first)}_${slug(last)[0]}`, `${slug(last)}${slug(first)[0]}`]), () =>
          String(Math.floor(next() * 10_000)),
        )
      : null;
    const createdAt = new Date(now - Math.floor(next() * twoYears)).toISOString();
    const banned = chance(0.01);
    return {
      id: newId(),
      name,
      email,
      emailVerified: bool(!chance(0.2)),
      image: null,
      createdAt,
      updatedAt: createdAt,
      username,
      displayUsername: username,
      role: chance(0.01) ? "admin" : "user",
      banned: banned ? bool(true) : null,
      banReason: banned ? "Spam" : null,
      banExpires: banned && chance(0.5) ? new Date(now + Math.floor(next() * 30) * 86_400_000).toISOString() : null,
    };
  });
}

/** A database of its own: a temp SQLite file, or `CREATE DATABASE` on the PostgreSQL server DATABASE_URL names. */
async function createBenchDatabase(): Promise<{ handle: DatabaseHandle; drop(): Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL ?? "";
  if (!/^postgres(ql)?:\/\//.test(serverUrl)) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-bench-"));
    const handle = openDatabase({ dialect: "sqlite", file: path.join(dataDir, "bench.sqlite") });
    return { handle, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `atrium_bench_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { handle: openDatabase({ dialect: "postgres", url: url.toString() }), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

const SCENARIOS: Array<{ title: string; query: Record<string, string> }> = [
  { title: "first page, newest first", query: {} },
  { title: "search a rare term", query: { q: "zbikowski" } },
  { title: "search a common term", query: { q: "son" } },
  { title: "search a term matching nobody", query: { q: "xqzvw" } },
  { title: "search a 2-letter term", query: { q: "li" } },
  { title: "search a common term, broad filters", query: { q: "son", status: "active", verified: "yes", role: "user" } },
  { title: "search a 2-letter term, broad filters", query: { q: "li", status: "active", verified: "yes" } },
  { title: "search a common term, by name", query: { q: "son", sort: "name", order: "asc" } },
  { title: "banned and unverified", query: { status: "banned", verified: "no" } },
  { title: "by name, page 100", query: { sort: "name", order: "asc", offset: String(99 * 25) } },
];

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

type Summary = { p50: number; p95: number; p99: number; max: number };

function summary(sorted: number[]): Summary {
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

/** Every call's time, sorted, with `callers` loops of `runs` calls each running at once. */
async function timeCalls(callers: number, runs: number, call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: callers }, async () => {
      for (let run = 0; run < runs; run += 1) {
        const started = performance.now();
        await call();
        times.push(performance.now() - started);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

const { handle, drop } = await createBenchDatabase();
const slow: string[] = [];
try {
  const { db, dialect } = handle;
  await migrateToLatest(db);
  const now = Date.now();
  const started = performance.now();
  const users = buildUsers(USERS, dialect, now);
  await db.transaction().execute(async (trx) => {
    for (let offset = 0; offset < users.length; offset += BATCH) {
      await trx
        .insertInto("user")
        .values(users.slice(offset, offset + BATCH))
        .execute();
    }
  });
  // What autovacuum would have done on a server that has held these users for a while.
  if (dialect === "postgres") await sql`vacuum analyze`.execute(db);
  console.log(`${dialect}: ${USERS.toLocaleString("en")} users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const columns = ["p50", "p95", "p99", "max"] as const;
  const header = columns.map((column) => `${column} ms`.padStart(8)).join(" ");
  console.log(`${"scenario".padEnd(38)} ${"matches".padStart(8)} │ alone ${header} │ ${CALLERS} callers ${header}`);
  for (const scenario of SCENARIOS) {
    const query = adminUserListQuerySchema.parse(scenario.query);
    const at = new Date(now);
    const call = () => listUsers(db, dialect, [], query, at);
    let total = 0;
    for (let run = 0; run < WARM_UPS; run += 1) total = (await call()).total;
    const alone = summary(await timeCalls(1, RUNS, call));
    if (alone.p95 >= BUDGET_MS) slow.push(`${scenario.title} (p95 alone ${alone.p95.toFixed(1)} ms)`);
    const together = scenario.query.q ? summary(await timeCalls(CALLERS, RUNS_PER_CALLER, call)) : undefined;
    if (together && together.p99 >= BUDGET_MS) slow.push(`${scenario.title} (p99 with ${CALLERS} callers ${together.p99.toFixed(1)} ms)`);
    const cells = (times: Summary | undefined) => columns.map((column) => (times ? times[column].toFixed(2) : "").padStart(8)).join(" ");
    console.log(
      `${scenario.title.padEnd(38)} ${String(total).padStart(8)} │       ${cells(alone)} │ ${" ".repeat(`${CALLERS} callers `.length)}${cells(together)}`,
    );
  }
} finally {
  await handle.close();
  await drop();
}
if (slow.length) {
  console.error(`At or over ${BUDGET_MS} ms: ${slow.join("; ")}`);
  process.exit(1);
}
