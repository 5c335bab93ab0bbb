// `npm run bench:admin-users`: times the platform-admin users list (the admin module's `listUsers`, in-process: the time the server
// spends) on 100,000 users, on a fresh SQLite file in a temp folder, or on a fresh PostgreSQL database created on
// the server DATABASE_URL names (postgres://…) and dropped afterwards. Each scenario runs alone, then the search
// scenarios also with 10 callers at once (a server's 10 connections: on SQLite they queue on its one connection, on
// PostgreSQL they share the cores). Exits 1 when a scenario's p95 alone, or a search scenario's p99 with 10 callers,
// reaches 50 ms.
import { performance } from "node:perf_hooks";
import { adminUserListQuerySchema } from "../common/admin.schemas";
import { migrateToLatest } from "../server/db/migrate";
import { listUsers } from "../server/modules/admin";
import { createBenchDatabase, settle } from "./database";
import { buildUsers, insertUsers } from "./users";

const USERS = 100_000;
const WARM_UPS = 5;
const RUNS = 100;
/** Callers at once, and calls each makes, for the search scenarios. */
const CALLERS = 10;
const RUNS_PER_CALLER = 20;
const BUDGET_MS = 50;

const SCENARIOS: Array<{ title: string; query: Record<string, string> }> = [
  { title: "first page, newest first", query: {} },
  { title: "search a rare term", query: { q: "zbikowski" } },
  { title: "search a common term", query: { q: "son" } },
  { title: "search a term matching nobody", query: { q: "xqzvw" } },
  { title: "search a 2-letter term", query: { q: "li" } },
  {
    title: "search a common term, broad filters",
    query: { q: "son", status: "active", verified: "yes", role: "user" },
  },
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
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
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
  await migrateToLatest(db, { authSecret: null });
  const now = Date.now();
  const started = performance.now();
  await insertUsers(db, buildUsers(USERS, dialect, now));
  await settle(handle);
  console.log(
    `${dialect}: ${USERS.toLocaleString("en")} users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
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
    if (together && together.p99 >= BUDGET_MS)
      slow.push(`${scenario.title} (p99 with ${CALLERS} callers ${together.p99.toFixed(1)} ms)`);
    const cells = (times: Summary | undefined) =>
      columns.map((column) => (times ? times[column].toFixed(2) : "").padStart(8)).join(" ");
    console.log(
      `${scenario.title.padEnd(38)} ${String(total).padStart(8)} │       ${cells(alone)} │ ${" ".repeat(`${CALLERS} callers `.length)}${cells(together)}`,
    );
  }
} finally {
  await drop();
}
if (slow.length) {
  console.error(`At or over ${BUDGET_MS} ms: ${slow.join("; ")}`);
  process.exit(1);
}
