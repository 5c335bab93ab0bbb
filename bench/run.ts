// `npm run bench`: the performance harness of issue 13. A Hono hello-world and the product, each in a node process of
// its own, are loaded one after the other from this process (autocannon, many simulated client addresses) on a fresh
// database seeded with 100,000 users and a 100-member organization (with an API key); then the sign-in's CPU share of
// password hashing, the first-load JavaScript of /sign-in and the product's peak memory. Prints every number and the
// targets, and exits 1 when one is missed. SQLite in a temp folder, or a fresh database on the PostgreSQL server
// DATABASE_URL names.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { build } from "../scripts/build.mjs";
import { staleBuilds } from "../scripts/builds.mjs";
import { migrateToLatest } from "../server/db/migrate";
import { SIGN_IN_JS_BUDGET } from "../e2e/first-load";
import { createBenchDatabase, settle, type BenchDatabase } from "./database";
import { measureFirstLoad } from "./first-load";
import { load, nextClientAddress } from "./load";
import { seedBenchAccount, startProduct, type BenchAccount } from "./product";
import { readMemory, root, sampleMemory, startServer, type MemorySampler, type ServerProcess } from "./processes";
import { freePort } from "../server/test/free-port";
import { machine, mb, percent, rowLine, rowsHeader, targetsTable, type Row, type Target } from "./report";
import { measureSignInCpu, profileSignIns } from "./sign-in-cpu";
import { buildUsers, insertUsers } from "./users";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 50);
const PROFILED_SIGN_INS = 20;
const USERS = 100_000;
const MEMBERS = 100;
/** The members page's default page size (web/features/organizations, PAGE_SIZE) and the largest the API allows. */
const MEMBERS_PAGE = 20;
const MEMBERS_MAX_PAGE = 100;
/** A common surname, a substring of many (Johnson, Wilson, Anderson…), a rare surname (one of users.ts's), another common one. */
const ADMIN_SEARCHES = ["smith", "son", "zbikowski", "garcia"];
const ADMIN_CONNECTIONS = 10;
const ADMIN_P99_BUDGET_MS = 50;
const RSS_BUDGET = 200 * 1024 * 1024;
/** What a browser sends: the product compresses API answers of 1 KB and more for it, and that is part of the cost. */
const BROWSER_HEADERS = { "accept-encoding": "gzip, deflate, br" };

/** Cleanups run in reverse order, once, on every way out (an error or Ctrl-C included). */
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse())
    await cleanup().catch((error: unknown) => console.error("cleanup failed:", error));
}
process.once("SIGINT", () => void cleanUp().finally(() => process.exit(130)));

function ensureBuilds(): void {
  const stale = staleBuilds(root);
  if (stale.length === 0) return;
  console.log(`Building ${stale.join(" and ")} (missing or older than the sources)…`);
  const status = build(root, stale);
  if (status !== 0) throw new Error(`the build exited with ${status}`);
}

/** 100,000 users through bulk inserts, before the product starts (it finds the migrations applied). */
async function seedUsers(database: BenchDatabase) {
  const started = performance.now();
  await migrateToLatest(database.handle.db, { authSecret: null });
  const users = buildUsers(USERS, database.handle.dialect, Date.now());
  await insertUsers(database.handle.db, users);
  console.log(`${USERS.toLocaleString("en")} users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return users;
}

/** A target on one measured path: its rate as a share of hello-world's, or its p99. */
type LoadTarget = { name: string; ratioAtLeast?: number; p99BelowMs?: number };
type MeasuredPath = {
  title: string;
  /** Requested in turn by every connection. */
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  check: (body: unknown) => boolean;
  target?: LoadTarget;
};

function productPaths(account: BenchAccount): MeasuredPath[] {
  const headers = { ...BROWSER_HEADERS, cookie: account.cookie };
  // The query the members page sends (web/features/organizations/api): search, offset and limit, in that order.
  const members = (limit: number) =>
    `/api/organizations/${account.organizationId}/members?search=&offset=0&limit=${limit}`;
  type MemberList = { members?: unknown[]; total?: number };
  const onePath = (title: string, url: string, check: MeasuredPath["check"], target?: LoadTarget): MeasuredPath => ({
    title,
    paths: [url],
    headers,
    connections: CONNECTIONS,
    check,
    target,
  });
  return [
    onePath(
      "GET /api/auth/get-session",
      "/api/auth/get-session",
      (body) => {
        const session = body as { user?: { email?: string }; session?: { activeOrganizationId?: string } } | null;
        return (
          session?.user?.email === account.email && session.session?.activeOrganizationId === account.organizationId
        );
      },
      { name: "get-session", ratioAtLeast: 0.5 },
    ),
    onePath(
      "GET /api/auth/organization/list",
      "/api/auth/organization/list",
      (body) =>
        Array.isArray(body) && body.some((organization: { id?: string }) => organization.id === account.organizationId),
      { name: "organization/list", ratioAtLeast: 0.25 },
    ),
    onePath(
      "GET /api/auth/organization/get-active-member",
      "/api/auth/organization/get-active-member",
      (body) => {
        const member = body as { organizationId?: string; userId?: string; role?: string } | null;
        return (
          member?.organizationId === account.organizationId &&
          member.userId === account.userId &&
          member.role === "owner"
        );
      },
      { name: "organization/get-active-member", ratioAtLeast: 0.25 },
    ),
    onePath(
      `GET …/:id/members?search=&offset=0&limit=${MEMBERS_PAGE}`,
      members(MEMBERS_PAGE),
      (body) => (body as MemberList).total === MEMBERS && (body as MemberList).members?.length === MEMBERS_PAGE,
      { name: `members of ${MEMBERS}, the page's default (limit=${MEMBERS_PAGE})`, ratioAtLeast: 0.25 },
    ),
    onePath(
      `GET …/:id/members?search=&offset=0&limit=${MEMBERS_MAX_PAGE}`,
      members(MEMBERS_MAX_PAGE),
      (body) => (body as MemberList).total === MEMBERS && (body as MemberList).members?.length === MEMBERS,
    ),
    {
      // What an organization's backend sends: its key and no cookie. Replayed to that key like a session's answer to
      // its session (ADR 0027), and each request counted against the key's limit.
      title: `GET …/:id/members limit=${MEMBERS_PAGE}, API key`,
      paths: [members(MEMBERS_PAGE)],
      headers: { ...BROWSER_HEADERS, authorization: `Bearer ${account.apiKey}` },
      connections: CONNECTIONS,
      check: (body) => (body as MemberList).total === MEMBERS && (body as MemberList).members?.length === MEMBERS_PAGE,
      target: { name: `members list with an API key (limit=${MEMBERS_PAGE})`, ratioAtLeast: 0.25 },
    },
    {
      title: `GET /api/admin/users?q= (${ADMIN_SEARCHES.length} terms in turn)`,
      paths: ADMIN_SEARCHES.map((term) => `/api/admin/users?q=${encodeURIComponent(term)}`),
      headers,
      connections: ADMIN_CONNECTIONS,
      check: (body) => {
        const list = body as { users?: unknown[]; total?: number } | null;
        return Array.isArray(list?.users) && (list.total ?? 0) > 0;
      },
      target: {
        name: `admin users search over ${USERS.toLocaleString("en")} users, ${ADMIN_CONNECTIONS} connections`,
        p99BelowMs: ADMIN_P99_BUDGET_MS,
      },
    },
  ];
}

/** Each path once, before any load: a 200 with the expected body, so a bench of error pages cannot happen. */
async function checkAnswers(baseUrl: string, measured: MeasuredPath): Promise<void> {
  for (const url of measured.paths) {
    const response = await fetch(`${baseUrl}${url}`, {
      headers: { ...measured.headers, "x-forwarded-for": nextClientAddress() },
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    if (response.status !== 200 || !measured.check(body))
      throw new Error(`GET ${url} answered ${response.status} with an unexpected body: ${text.slice(0, 300)}`);
  }
}

/**
 * A short unreported run first (connections, caches and JIT warm), then the measured one, sampling the server's RSS.
 * The ratio to hello-world is set once both hello-world runs are in.
 */
async function measure(baseUrl: string, measured: MeasuredPath, memory: MemorySampler): Promise<Row> {
  const options = { baseUrl, paths: measured.paths, headers: measured.headers, connections: measured.connections };
  if (WARM_UP_SECONDS > 0) await load({ ...options, seconds: WARM_UP_SECONDS });
  memory.startWindow();
  const result = await load({ ...options, seconds: SECONDS });
  return { ...result, title: measured.title, rssBytes: memory.windowPeak(), ratio: 1 };
}

async function measureHelloWorld(when: "before" | "after"): Promise<Row> {
  const port = await freePort();
  const hello = await startServer({
    entry: "bench/hello-world.mjs",
    port,
    env: { PORT: String(port) },
    readyPath: "/",
    logFile: "/dev/null",
  });
  const memory = sampleMemory(hello.pid);
  try {
    const measured: MeasuredPath = {
      title: `hello-world GET / (${when})`,
      paths: ["/"],
      headers: BROWSER_HEADERS,
      connections: CONNECTIONS,
      check: (body) => body === "Hello",
    };
    await checkAnswers(hello.baseUrl, measured);
    return await measure(hello.baseUrl, measured, memory);
  } finally {
    memory.stop();
    await hello.stop();
  }
}

/** A load target is missed by any error, whatever the numbers. */
function loadTarget(target: LoadTarget, row: Row): Target {
  const errors = row.errors ? `, ${row.errors} errors` : "";
  if (target.p99BelowMs !== undefined) {
    return {
      name: `${target.name}: p99 < ${target.p99BelowMs} ms`,
      measured: `p99 ${row.p99.toFixed(0)} ms${errors}`,
      met: !row.errors && row.p99 < target.p99BelowMs,
    };
  }
  const minimum = target.ratioAtLeast ?? 0;
  return {
    name: `${target.name} ≥ ${(minimum * 100).toFixed(0)} % of hello-world`,
    measured: `${percent(row.ratio)}${errors}`,
    met: !row.errors && row.ratio >= minimum,
  };
}

async function main(): Promise<boolean> {
  ensureBuilds();
  const database = await createBenchDatabase();
  cleanups.push(database.drop);
  const { dialect } = database.handle;
  console.log(
    `Atrium bench on ${dialect}: ${CONNECTIONS} connections (admin search ${ADMIN_CONNECTIONS}), ${SECONDS} s per path after ${WARM_UP_SECONDS} s of warm-up`,
  );
  const users = await seedUsers(database);

  const product: ServerProcess = await startProduct(database);
  cleanups.push(product.stop);
  const memory = sampleMemory(product.pid);
  const account = await seedBenchAccount(product.baseUrl, database, users.slice(0, MEMBERS - 1));
  await settle(database.handle);
  console.log(
    `Organization with ${MEMBERS} members (the bench's platform admin owns it); product pid ${product.pid} at ${product.baseUrl}, ` +
      `RSS ${mb(readMemory(product.pid)?.rss ?? Number.NaN)} before any load`,
  );
  const measured = productPaths(account);
  for (const entry of measured) await checkAnswers(product.baseUrl, entry);

  // Hello-world runs before and after the product's paths, and the ratios are to the faster of the two, so that a
  // moment of load from elsewhere on the machine cannot flatter the product.
  const helloBefore = await measureHelloWorld("before");
  const rows = [];
  for (const entry of measured) rows.push({ entry, row: await measure(product.baseUrl, entry, memory) });
  const helloAfter = await measureHelloWorld("after");
  const hello = helloBefore.requestsPerSecond >= helloAfter.requestsPerSecond ? helloBefore : helloAfter;
  console.log(`\n${rowsHeader()}`);
  for (const run of [helloBefore, helloAfter])
    console.log(rowLine({ ...run, ratio: run.requestsPerSecond / hello.requestsPerSecond }));
  const targets: Target[] = [];
  for (const { entry, row } of rows) {
    const rated = { ...row, ratio: row.requestsPerSecond / hello.requestsPerSecond };
    console.log(rowLine(rated));
    if (entry.target) targets.push(loadTarget(entry.target, rated));
  }

  const signIn = await measureSignInCpu({
    baseUrl: product.baseUrl,
    pid: product.pid,
    email: account.email,
    password: account.password,
    count: SIGN_INS,
  });
  const firstLoad = await measureFirstLoad(product.baseUrl);
  const { sampledPeak, highWaterMark } = memory.stop();
  const peak = Math.max(sampledPeak, highWaterMark);
  await product.stop();
  const profile = await profileSignIns(database, account, PROFILED_SIGN_INS);

  console.log(
    `\nSign-in: ${signIn.productMsPerSignIn.toFixed(1)} ms of product CPU per sign-in (${signIn.signIns} in a row); ` +
      `better-auth's scrypt password check alone: ${signIn.verifyMsPerSignIn.toFixed(1)} ms of CPU; share in hashing ${percent(signIn.share)}`,
  );
  if (!profile) console.log("Sign-in CPU profile: the profiled process wrote none");
  else {
    console.log(
      `Sign-in, the product's main thread outside hashing (V8 CPU profile of ${profile.signIns} more sign-ins in a process of its own): ` +
        `${profile.mainThreadMsPerSignIn.toFixed(1)} ms per sign-in; most self time, per sign-in:`,
    );
    for (const time of profile.top) console.log(`  ${time.ms.toFixed(2).padStart(6)} ms  ${time.name}`);
  }
  if ("notMeasured" in firstLoad) console.log(`First load of /sign-in: not measured: ${firstLoad.notMeasured}`);
  else {
    const largest = firstLoad.scripts[0];
    console.log(
      `First load of /sign-in: ${(firstLoad.total / 1024).toFixed(1)} KB of gzipped JavaScript in ${firstLoad.scripts.length} files; ` +
        `largest chunk ${largest ? `${path.basename(largest.path)} (${(largest.bytes / 1024).toFixed(1)} KB)` : "none"}`,
    );
  }
  console.log(
    `Product RSS: peak ${mb(sampledPeak)} sampled every 200 ms, high-water mark (VmHWM) ${mb(highWaterMark)}`,
  );

  targets.push(
    { name: "sign-in CPU in password hashing ≥ 85 %", measured: percent(signIn.share), met: signIn.share >= 0.85 },
    "notMeasured" in firstLoad
      ? { name: "/sign-in first-load JavaScript ≤ 120 KB gzipped", measured: "not measured (no Chromium)", met: false }
      : {
          name: "/sign-in first-load JavaScript ≤ 120 KB gzipped",
          measured: `${(firstLoad.total / 1024).toFixed(1)} KB`,
          met: firstLoad.total <= SIGN_IN_JS_BUDGET && firstLoad.scripts.length > 0,
        },
    { name: "product RSS < 200 MB during the bench", measured: mb(peak), met: peak < RSS_BUDGET },
  );
  console.log(`\n${targetsTable(targets)}\n\nMachine: ${machine(dialect)}`);
  const missed = targets.filter((target) => !target.met);
  console.log(
    missed.length
      ? `Bench: ${targets.length - missed.length} of ${targets.length} targets met; missed: ${missed.map((target) => target.name).join("; ")}`
      : `Bench: all ${targets.length} targets met`,
  );
  return missed.length === 0;
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
