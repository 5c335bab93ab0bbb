// `npm run bench:scale`: issue 30's scale bench, on PostgreSQL only (DATABASE_URL names the server; the bench creates
// a fresh database there and drops it at the end). One database grows through 10,000, 100,000 and 1,000,000 users
// (BENCH_SCALE_SIZES), with 100,000 organizations, the bench's account in 50 of them, and its own organization of
// 10,000 members. At each size the product is started afresh and its paths are loaded against a one-process Hono
// hello-world, the sign-in's CPU share of hashing and the product's RSS are read, and at the end the table and the
// chart (p99 against size) are written into docs/performance.md and docs/performance-scale.svg. `--soak` (or
// BENCH_SOAK_MINUTES) then holds the largest size at half its measured capacity and reports RSS and p99 per minute.
import { performance } from "node:perf_hooks";
import { migrateToLatest } from "../server/db/migrate";
import { addSeededMembers, insertSeededOrganizations, insertSeededUsers, joinSeededOrganizations } from "./bulk-seed";
import { createBenchDatabase, isPostgresUrl, settle, type BenchDatabase } from "./database";
import { load } from "./load";
import {
  ADMIN_P99_BUDGET_MS,
  ADMIN_SEARCHES,
  BROWSER_HEADERS,
  checkAnswers,
  cleanUp,
  cleanups,
  CONNECTIONS,
  ensureBuilds,
  measureAgainstHelloWorld,
  SECONDS,
  SIGN_INS,
  WARM_UP_SECONDS,
  type MeasuredPath,
} from "./measure";
import { seedBenchAccount, startProduct, type BenchAccount } from "./product";
import { readMemory, sampleMemory, waitUntilIdle } from "./processes";
import { loadAverage, mb, signInLine, signInTarget, verdict, type Target } from "./report";
import { writeScaleReport, type SizeResult, type SoakMinute } from "./scale-report";
import { measureSignInCpu } from "./sign-in-cpu";
import { FIRST_NAMES, LAST_NAMES } from "./users";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "10000,100000,1000000").split(",").map(Number);
const ORGANIZATIONS = 100_000;
/** The bench's organization: its owner and 9,999 seeded users. */
const BIG_ORGANIZATION = 10_000;
/** The bench's account is in this many organizations: its own and the first 49 seeded ones. */
const ACCOUNT_ORGANIZATIONS = 50;
const SEED_BUDGET_MS = 5 * 60_000;
const MEMBERS_P99_MS = 20;
const FULL_ORGANIZATION_P99_MS = 50;
const RSS_BUDGET = 250 * 1024 * 1024;
const SOAK_MINUTES = process.argv.includes("--soak") ? 10 : Number(process.env.BENCH_SOAK_MINUTES ?? 0);
const SOAK_RSS_GROWTH = 0.1;

/** Search terms as people type them: first names and surnames, lowercased, without their accents. */
const MEMBER_SEARCHES = [...FIRST_NAMES, ...LAST_NAMES].map((name) =>
  name
    .normalize("NFD")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase(),
);

/** A path per request from `make(n)`, n counting up from 1: every request a distinct one, so none is replayed. */
function distinct(make: (n: number) => string): () => string {
  let n = 0;
  return () => make((n += 1));
}

function scalePaths(account: BenchAccount, users: number): MeasuredPath[] {
  const headers = { ...BROWSER_HEADERS, cookie: account.cookie };
  const id = account.organizationId;
  const members = `/api/organizations/${id}/members`;
  type MemberList = { members?: unknown[]; total?: number };
  const path = (entry: Omit<MeasuredPath, "headers" | "connections"> & Partial<MeasuredPath>): MeasuredPath => ({
    headers,
    connections: CONNECTIONS,
    ...entry,
  });
  return [
    path({
      title: "GET /api/auth/get-session",
      paths: ["/api/auth/get-session"],
      check: (body) => (body as { user?: { id?: string } } | null)?.user?.id === account.userId,
      target: { name: "get-session", ratioAtLeast: 0.65 },
    }),
    path({
      title: `GET /api/auth/organization/list (${ACCOUNT_ORGANIZATIONS} organizations)`,
      paths: ["/api/auth/organization/list"],
      check: (body) => Array.isArray(body) && body.length === ACCOUNT_ORGANIZATIONS,
      target: { name: `organization/list of ${ACCOUNT_ORGANIZATIONS}`, ratioAtLeast: 0.6 },
    }),
    path({
      title: "GET /api/auth/organization/get-active-member",
      paths: ["/api/auth/organization/get-active-member"],
      check: (body) => (body as { role?: string } | null)?.role === "owner",
      target: { name: "get-active-member", ratioAtLeast: 0.6 },
    }),
    // The members page's own requests, each a first read: a counter the API ignores makes every URL new.
    path({
      title: "members of 10,000, first page, first reads",
      paths: [`${members}?search=&offset=0&limit=20`],
      nextPath: distinct((n) => `${members}?search=&offset=0&limit=20&read=${n}`),
      check: (body) => (body as MemberList).total === BIG_ORGANIZATION && (body as MemberList).members?.length === 20,
      target: { name: "members of 10,000, first page", p99BelowMs: MEMBERS_P99_MS },
    }),
    path({
      title: "members of 10,000, a search, first reads",
      paths: [`${members}?search=smith&offset=0&limit=20`],
      nextPath: distinct((n) => {
        const term = MEMBER_SEARCHES[n % MEMBER_SEARCHES.length] ?? "";
        return `${members}?search=${encodeURIComponent(term)}&offset=0&limit=20&read=${n}`;
      }),
      check: (body) => ((body as MemberList).total ?? 0) > 0,
      target: { name: "members of 10,000, a search by name or e-mail", p99BelowMs: MEMBERS_P99_MS },
    }),
    path({
      title: "list-members at offset 9,900 (limit 100)",
      paths: [`/api/auth/organization/list-members?organizationId=${id}&limit=100&offset=9900`],
      check: (body) => (body as MemberList).total === BIG_ORGANIZATION && (body as MemberList).members?.length === 100,
      target: { name: "list-members at offset 9,900", p99BelowMs: MEMBERS_P99_MS },
    }),
    // The same page, each request a first read (the judged row's repeated reads are answered from memory): shown only.
    path({
      title: "list-members at offset 9,900, first reads",
      paths: [`/api/auth/organization/list-members?organizationId=${id}&limit=100&offset=9900`],
      nextPath: distinct(
        (n) => `/api/auth/organization/list-members?organizationId=${id}&limit=100&offset=9900&read=${n}`,
      ),
      check: (body) => (body as MemberList).members?.length === 100,
    }),
    path({
      title: "get-full-organization (10,000 members)",
      paths: [`/api/auth/organization/get-full-organization?organizationId=${id}`],
      check: (body) => (body as { id?: string } | null)?.id === id,
      target: { name: "get-full-organization", p99BelowMs: FULL_ORGANIZATION_P99_MS },
    }),
    path({
      title: "members, first page, API key",
      paths: [`${members}?search=&offset=0&limit=20`],
      headers: { ...BROWSER_HEADERS, authorization: `Bearer ${account.apiKey}` },
      check: (body) => (body as MemberList).total === BIG_ORGANIZATION,
      target: { name: "members list with an API key", ratioAtLeast: 0.25 },
    }),
    path({
      title: "admin users list, first page",
      paths: ["/api/admin/users"],
      check: (body) => (body as { total?: number }).total === users + 1,
      target: { name: "admin users list", p99BelowMs: ADMIN_P99_BUDGET_MS },
    }),
    path({
      title: `admin users search (${ADMIN_SEARCHES.length} terms in turn)`,
      paths: ADMIN_SEARCHES.map((term) => `/api/admin/users?q=${encodeURIComponent(term)}`),
      check: (body) => ((body as { total?: number }).total ?? 0) > 0,
      target: { name: "admin users search", p99BelowMs: ADMIN_P99_BUDGET_MS },
    }),
  ];
}

/** Seconds since `started`, for the log. */
const since = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

/** Grows the database to `users` users; the first call also seeds the organizations. Returns the time it took. */
async function grow(database: BenchDatabase, from: number, users: number): Promise<number> {
  const { db } = database.handle;
  const started = performance.now();
  await insertSeededUsers(db, from + 1, users);
  console.log(`Users ${(from + 1).toLocaleString("en")} to ${users.toLocaleString("en")} seeded in ${since(started)}`);
  if (from === 0) {
    const organizationsStarted = performance.now();
    await insertSeededOrganizations(db, ORGANIZATIONS, Math.min(users, 10_000));
    console.log(
      `${ORGANIZATIONS.toLocaleString("en")} organizations and owners seeded in ${since(organizationsStarted)}`,
    );
  }
  return performance.now() - started;
}

async function measureSize(
  database: BenchDatabase,
  users: number,
  existing: BenchAccount | undefined,
): Promise<{ account: BenchAccount; result: SizeResult }> {
  const product = await startProduct(database, { label: `product-${users}` });
  cleanups.push(product.stop);
  const memory = sampleMemory(product.pid);
  const { db } = database.handle;
  const account =
    existing ??
    (await seedBenchAccount(product.baseUrl, database, (organizationId) =>
      addSeededMembers(db, organizationId, BIG_ORGANIZATION - 1),
    ));
  if (!existing) await joinSeededOrganizations(db, account.userId, ACCOUNT_ORGANIZATIONS - 1);
  await settle(database.handle);
  const quiet = await waitUntilIdle();
  const settled = `${quiet.idle ? "the machine idle" : "the machine still busy"} after ${quiet.seconds.toFixed(0)} s`;
  console.log(
    `\n${users.toLocaleString("en")} users: product pid ${product.pid}, RSS ${mb(readMemory(product.pid)?.rss ?? 0)} ` +
      `before any load; ${settled}`,
  );
  const measured = scalePaths(account, users);
  for (const entry of measured) await checkAnswers(product.baseUrl, entry);
  const { hello, rows, targets } = await measureAgainstHelloWorld(product.baseUrl, measured, memory);
  const signIn = await measureSignInCpu({ ...account, baseUrl: product.baseUrl, pid: product.pid, count: SIGN_INS });
  console.log(signInLine(signIn));
  const { sampledPeak, highWaterMark } = memory.stop();
  const peak = Math.max(sampledPeak, highWaterMark);
  await product.stop();
  console.log(`Product RSS: peak ${mb(peak)}`);
  targets.push(signInTarget(signIn));
  const result: SizeResult = {
    users,
    hello,
    rows,
    signIn,
    peakRss: peak,
    targets,
    loadAverage: loadAverage(),
    quiet,
  };
  return { account, result };
}

/**
 * The largest size, held at half the rate a mix of every page's reads reached at full speed, one minute at a time:
 * RSS and p99 at the end of each minute.
 */
async function soak(database: BenchDatabase, account: BenchAccount, minutes: number): Promise<SoakMinute[]> {
  const product = await startProduct(database, { label: "product-soak" });
  cleanups.push(product.stop);
  const members = `/api/organizations/${account.organizationId}/members`;
  const options = {
    baseUrl: product.baseUrl,
    paths: [
      "/api/auth/get-session",
      "/api/auth/organization/list",
      "/api/auth/organization/get-active-member",
      `${members}?search=&offset=0&limit=20`,
      `${members}?search=son&offset=0&limit=20`,
    ],
    headers: { ...BROWSER_HEADERS, cookie: account.cookie },
    connections: CONNECTIONS,
  };
  await load({ ...options, seconds: WARM_UP_SECONDS });
  const capacity = await load({ ...options, seconds: SECONDS });
  const rate = Math.round(capacity.requestsPerSecond / 2);
  console.log(
    `\nSoak: capacity ${capacity.requestsPerSecond.toFixed(0)} req/s, held at ${rate} req/s for ${minutes} min`,
  );
  const startRss = readMemory(product.pid)?.rss ?? 0;
  const result: SoakMinute[] = [];
  for (let minute = 1; minute <= minutes; minute += 1) {
    const run = await load({ ...options, seconds: 60, overallRate: rate });
    const rss = readMemory(product.pid)?.rss ?? 0;
    result.push({ minute, ...run, rssBytes: rss, startRssBytes: startRss });
    console.log(
      `  minute ${minute}: ${run.requestsPerSecond.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms, ` +
        `${run.errors} errors, RSS ${mb(rss)} (${(((rss - startRss) / startRss) * 100).toFixed(1)} % since the start)`,
    );
  }
  await product.stop();
  return result;
}

async function main(): Promise<boolean> {
  if (!isPostgresUrl(process.env.DATABASE_URL)) {
    console.error("bench:scale runs on PostgreSQL: set DATABASE_URL=postgres://user@host:port/any-database");
    return false;
  }
  ensureBuilds();
  const database = await createBenchDatabase();
  cleanups.push(database.drop);
  await migrateToLatest(database.handle.db, { authSecret: null });
  console.log(
    `Atrium scale bench on postgres: ${CONNECTIONS} connections, ${SECONDS} s per path after ${WARM_UP_SECONDS} s ` +
      `of warm-up; sizes ${SIZES.map((size) => size.toLocaleString("en")).join(", ")}`,
  );
  const results: SizeResult[] = [];
  const targets: Target[] = [];
  let seededMs = 0;
  let account: BenchAccount | undefined;
  for (const users of SIZES) {
    seededMs += await grow(database, results.at(-1)?.users ?? 0, users);
    const measured = await measureSize(database, users, account);
    account = measured.account;
    results.push(measured.result);
    const label = `at ${users.toLocaleString("en")} users`;
    targets.push(...measured.result.targets.map((target) => ({ ...target, name: `${target.name} ${label}` })));
  }
  const largest = results.at(-1);
  if (largest) {
    const users = largest.users.toLocaleString("en");
    targets.push(
      {
        name: `seeding up to ${users} users, organizations included, < 5 min`,
        measured: `${(seededMs / 1000).toFixed(0)} s`,
        met: seededMs < SEED_BUDGET_MS,
      },
      {
        name: `product RSS < 250 MB at ${users} users`,
        measured: mb(largest.peakRss),
        met: largest.peakRss < RSS_BUDGET,
      },
    );
  }
  const soakMinutes = account && SOAK_MINUTES > 0 ? await soak(database, account, SOAK_MINUTES) : [];
  const first = soakMinutes[0];
  const last = soakMinutes.at(-1);
  if (first && last) {
    const growth = (last.rssBytes - first.startRssBytes) / first.startRssBytes;
    targets.push({
      name: `soak: RSS growth over ${soakMinutes.length} min < 10 %`,
      measured: `${(growth * 100).toFixed(1)} %`,
      met: growth < SOAK_RSS_GROWTH,
    });
  }
  const passed = verdict(targets, "postgres");
  writeScaleReport({ results, seededMs, soak: soakMinutes, targets });
  return passed;
}

let passed = false;
try {
  passed = await main();
} catch (error) {
  console.error(error);
} finally {
  await cleanUp();
}
process.exit(passed ? 0 : 1);
