// `npm run bench:admin-users`: times the platform-admin users list (the admin module's `listUsers`, in-process: the time the server
// spends) on 100,000 users, on a fresh SQLite file in a temp folder, or on a fresh PostgreSQL database created on
// the server DATABASE_URL names (postgres://…) and dropped afterwards. Exits 1 when a scenario's p95 reaches 50 ms.
import { performance } from "node:perf_hooks";
import { adminUserListQuerySchema } from "../common/admin.schemas";
import { migrateToLatest } from "../server/db/migrate";
import { listUsers } from "../server/modules/admin";
import { createBenchDatabase, settle } from "./database";
import { buildUsers, insertUsers } from "./users";

const USERS = 100_000;
const WARM_UPS = 5;
const RUNS = 50;
const BUDGET_MS = 50;

const SCENARIOS: Array<{ title: string; query: Record<string, string> }> = [
  { title: "first page, newest first", query: {} },
  { title: "search a rare term", query: { q: "zbikowski" } },
  { title: "search a common term", query: { q: "son" } },
  { title: "search a term matching nobody", query: { q: "xqzvw" } },
  { title: "search a 2-letter term", query: { q: "li" } },
  { title: "banned and unverified", query: { status: "banned", verified: "no" } },
  { title: "by name, page 100", query: { sort: "name", order: "asc", offset: String(99 * 25) } },
];

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

const { handle, drop } = await createBenchDatabase();
const slow: string[] = [];
try {
  const { db, dialect } = handle;
  await migrateToLatest(db);
  const now = Date.now();
  let started = performance.now();
  await insertUsers(db, buildUsers(USERS, dialect, now));
  await settle(handle);
  console.log(`${dialect}: ${USERS.toLocaleString("en")} users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${"scenario".padEnd(32)} ${"matches".padStart(8)}   p50 ms   p95 ms   max ms`);
  for (const scenario of SCENARIOS) {
    const query = adminUserListQuerySchema.parse(scenario.query);
    const at = new Date(now);
    let total = 0;
    for (let run = 0; run < WARM_UPS; run += 1) total = (await listUsers(db, dialect, [], query, at)).total;
    const times: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      started = performance.now();
      await listUsers(db, dialect, [], query, at);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const [p50, p95, max] = [percentile(times, 0.5), percentile(times, 0.95), times[times.length - 1] ?? Number.NaN];
    if (p95 >= BUDGET_MS) slow.push(scenario.title);
    console.log(`${scenario.title.padEnd(32)} ${String(total).padStart(8)} ${[p50, p95, max].map((ms) => ms.toFixed(2).padStart(8)).join(" ")}`);
  }
} finally {
  await drop();
}
if (slow.length) {
  console.error(`p95 at or over ${BUDGET_MS} ms: ${slow.join("; ")}`);
  process.exit(1);
}
