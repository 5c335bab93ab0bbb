// `npm run bench`: the performance harness of issue 13. A Hono hello-world and the product, each in a node process of
// its own, are loaded one after the other from this process (autocannon, many simulated client addresses) on a fresh
// database seeded with 100,000 users and a 100-member organization (with an API key); then the sign-in's CPU share of
// password hashing, the first-load JavaScript of /sign-in and the product's peak memory. Prints every number and the
// targets, and exits 1 when one is missed. SQLite in a temp folder, or a fresh database on the PostgreSQL server
// DATABASE_URL names.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { migrateToLatest } from "../server/db/migrate";
import { SIGN_IN_JS_BUDGET } from "../e2e/first-load";
import { createBenchDatabase, settle, type BenchDatabase } from "./database";
import { measureFirstLoad } from "./first-load";
import {
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
  ADMIN_P99_BUDGET_MS,
  ADMIN_SEARCHES,
  type LoadTarget,
  type MeasuredPath,
} from "./measure";
import { addMembers, seedBenchAccount, startProduct, type BenchAccount } from "./product";
import { readMemory, sampleMemory, type ServerProcess } from "./processes";
import { mb, signInLine, signInTarget, verdict } from "./report";
import { measureSignInCpu, profileSignIns } from "./sign-in-cpu";
import { buildUsers, insertUsers } from "./users";

const PROFILED_SIGN_INS = 20;
const USERS = 100_000;
const MEMBERS = 100;
/** The members page's default page size (web/features/organizations, PAGE_SIZE) and the largest the API allows. */
const MEMBERS_PAGE = 20;
const MEMBERS_MAX_PAGE = 100;
const ADMIN_CONNECTIONS = 10;
const RSS_BUDGET = 200 * 1024 * 1024;

/** 100,000 users through bulk inserts, before the product starts (it finds the migrations applied). */
async function seedUsers(database: BenchDatabase) {
  const started = performance.now();
  await migrateToLatest(database.handle.db, { authSecret: null });
  const users = buildUsers(USERS, database.handle.dialect, Date.now());
  await insertUsers(database.handle.db, users);
  console.log(`${USERS.toLocaleString("en")} users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return users;
}

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
  const account = await seedBenchAccount(product.baseUrl, database, (organizationId) =>
    addMembers(database, organizationId, users.slice(0, MEMBERS - 1)),
  );
  await settle(database.handle);
  console.log(
    `Organization with ${MEMBERS} members (the bench's platform admin owns it); product pid ${product.pid} at ${product.baseUrl}, ` +
      `RSS ${mb(readMemory(product.pid)?.rss ?? Number.NaN)} before any load`,
  );
  const measured = productPaths(account);
  for (const entry of measured) await checkAnswers(product.baseUrl, entry);

  const { targets } = await measureAgainstHelloWorld(product.baseUrl, measured, memory);

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

  console.log(`\n${signInLine(signIn)}`);
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
    signInTarget(signIn),
    "notMeasured" in firstLoad
      ? { name: "/sign-in first-load JavaScript ≤ 120 KB gzipped", measured: "not measured (no Chromium)", met: false }
      : {
          name: "/sign-in first-load JavaScript ≤ 120 KB gzipped",
          measured: `${(firstLoad.total / 1024).toFixed(1)} KB`,
          met: firstLoad.total <= SIGN_IN_JS_BUDGET && firstLoad.scripts.length > 0,
        },
    { name: "product RSS < 200 MB during the bench", measured: mb(peak), met: peak < RSS_BUDGET },
  );
  return verdict(targets, dialect);
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
