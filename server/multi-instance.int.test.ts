import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type DatabaseHandle } from "./db/database";
import type { DevMail } from "./modules/mail";
import { buildUser, extractLink, waitFor, type SessionBody, type UserInput } from "./test/factories";
import { SIGN_IN_LIMIT } from "./test/rate-limit";
import { randomIp } from "./test/request";
import { createTestDatabase, type TestDatabase } from "./test/test-database";
import { freePort } from "./test/free-port";
import { startServerProcess, type ServerProcess } from "./test/server-process";

/**
 * Two real instances of the server (server/main.ts in two child processes, A and B) sharing one database and one
 * Redis, as two machines behind a load balancer would. Each instance keeps its own read cache (server/db/read-cache.ts)
 * and replays whole answers from it: a change made through A must show on B within a second, whatever B had cached.
 * Each scenario warms B's cache with the state before the change, makes the change on A, then reads B every 25 ms
 * and measures from the moment A's answer arrived until B's first answer that shows it.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** The bound: a change made on one instance shows on every other within this. */
const WITHIN_MS = 1_000;
/** How often B is read while waiting for a change. */
const PROBE_EVERY_MS = 25;
/** The prefix of the rate-limit counters in Redis (server/http/rate-limit-store.ts). */
const RATE_LIMIT_PREFIX = "atrium:rate-limit:";

type Instance = ServerProcess;
/** An answer as a client saw it; `at` is when it had arrived in full (performance.now()). */
type Answer = { status: number; text: string; data: unknown; sessionCookie?: string; at: number };
/** A browser: its own client address (its own rate-limit buckets) and the session cookie it holds. */
type Browser = { ip: string; cookie: string };
type User = { id: string; input: UserInput; browser: Browser };
type Member = { id: string; organizationId: string; userId: string; role: string };
type MembersPage = { members: Array<{ userId: string; role: string }>; total: number };

let database: TestDatabase;
let db: DatabaseHandle | undefined;
let A: Instance;
let B: Instance;
/** The platform admin: ADMIN_EMAILS names this address on both instances, so verifying it makes them one. */
const adminInput = buildUser({ label: "Platform Admin" });
let admin: User;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Both instances' output, for a failure's message: the test prints nothing when it passes. */
function logs(): string {
  return [A, B]
    .filter(Boolean)
    .map((instance) => instance.logs())
    .join("\n");
}

/** Runs `body` and, when it fails, adds both instances' output to the failure. */
async function withLogs(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (error instanceof Error) error.message = `${error.message}\n\n${logs()}`;
    throw error;
  }
}

function scenario(name: string, body: () => Promise<void>): void {
  test(name, () => withLogs(body));
}

/** One request to an instance, from `ip` (X-Forwarded-For, trusted from 127.0.0.1); a POST carries the instance's own origin. */
async function call(
  instance: Instance,
  pathname: string,
  options: { ip: string; cookie?: string; json?: unknown },
): Promise<Answer> {
  const isPost = options.json !== undefined;
  const response = await fetch(`${instance.url}${pathname}`, {
    method: isPost ? "POST" : "GET",
    redirect: "manual",
    headers: {
      "x-forwarded-for": options.ip,
      ...(isPost ? { "content-type": "application/json", origin: instance.url } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: isPost ? JSON.stringify(options.json) : undefined,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const at = performance.now();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  const sessionCookie = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .find((pair) => /^[^=]*session_token=./.test(pair));
  return { status: response.status, text, data, sessionCookie, at };
}

const describeAnswer = (answer: Answer) => `${answer.status} ${answer.text.slice(0, 500)}`;

/** Asserts the status, and returns the answer. */
function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${describeAnswer(answer)}`);
  return answer;
}

const getSession = async (instance: Instance, browser: Browser) =>
  expectStatus(await call(instance, "/api/auth/get-session", browser), 200, `get-session on ${instance.name}`)
    .data as SessionBody;

/** Signs in with e-mail and password on a browser of its own (another device). */
async function signIn(instance: Instance, input: Pick<UserInput, "email" | "password">): Promise<Browser> {
  const ip = randomIp();
  const answer = expectStatus(
    await call(instance, "/api/auth/sign-in/email", { ip, json: { email: input.email, password: input.password } }),
    200,
    `sign-in on ${instance.name}`,
  );
  if (!answer.sessionCookie) throw new Error(`sign-in on ${instance.name} set no session cookie`);
  return { ip, cookie: answer.sessionCookie };
}

/** Signs up on A and follows the verification mail's link, which signs the user in. */
async function createVerifiedUser(input: UserInput): Promise<User> {
  const ip = randomIp();
  expectStatus(await call(A, "/api/auth/sign-up/email", { ip, json: input }), 200, "sign-up");
  // The outbox worker of the instance that queued the mail sends it into the dev mailbox right after the answer.
  const mail = await waitFor(
    async () => {
      await pause(50);
      const mails = expectStatus(
        await call(A, `/api/dev/mail?to=${encodeURIComponent(input.email)}`, { ip }),
        200,
        "dev mailbox",
      ).data as DevMail[];
      return mails.find((candidate) => candidate.subject.startsWith("Verify your e-mail"));
    },
    { timeoutMs: 10_000, what: `the verification mail to ${input.email}` },
  );
  const verified = expectStatus(await call(A, extractLink(mail), { ip }), 302, "verification link");
  if (!verified.sessionCookie) throw new Error("the verification link set no session cookie");
  const browser = { ip, cookie: verified.sessionCookie };
  const session = await getSession(A, browser);
  if (!session) throw new Error(`${input.email} is not signed in after verifying`);
  return { id: session.user.id, input, browser };
}

/** A change's check on B: a read, and whether its answer shows the change. */
type Probe = { read: () => Promise<Answer>; shows: (answer: Answer) => boolean };

/** Per probe, ms after `since`: when B's first answer showing the change arrived, when its last stale read was sent. */
type Timings = { shownAfter: Record<string, number>; lastStaleSentAfter: Record<string, number> };

/**
 * Reads B every 25 ms until every probe shows the change, and returns, per probe, how long after `since` (when A's
 * answer arrived) B's first answer showing it arrived, and its last answer showing the old state was asked for;
 * fails if one still shows the old state after 5 s.
 */
async function timesUntilShownOnB(since: number, probes: Record<string, Probe>): Promise<Timings> {
  const pending = new Map(Object.entries(probes));
  const last = new Map<string, Answer>();
  const shownAfter: Record<string, number> = {};
  const lastStaleSentAfter: Record<string, number> = {};
  for (;;) {
    for (const [name, probe] of [...pending]) {
      const sentAt = performance.now();
      const answer = await probe.read();
      last.set(name, answer);
      if (probe.shows(answer)) {
        shownAfter[name] = Math.round(answer.at - since);
        pending.delete(name);
      } else {
        lastStaleSentAfter[name] = Math.round(sentAt - since);
      }
    }
    if (pending.size === 0) return { shownAfter, lastStaleSentAfter };
    if (performance.now() - since > 5_000) {
      const stale = [...pending.keys()].map((name) => `${name}: ${describeAnswer(last.get(name)!)}`);
      throw new Error(`5 s after A answered, B still shows the state before the change:\n${stale.join("\n")}`);
    }
    await pause(PROBE_EVERY_MS);
  }
}

/**
 * Every probe showed the change on B within the bound, and still shows it. The bound is on when B was asked, not on
 * when its answer arrived: no read sent WITHIN_MS or more after A answered may show the old state. B checks its
 * cache's freshness when the read comes in, so that holds however slowly a busy machine carries the answers back.
 */
async function expectShownOnBWithin(since: number, probes: Record<string, Probe>): Promise<void> {
  const timings = await timesUntilShownOnB(since, probes);
  const late = Object.entries(timings.lastStaleSentAfter).filter(([, ms]) => ms >= WITHIN_MS);
  expect(late, `ms after A's answer (stale read sent, change shown): ${JSON.stringify(timings)}`).toEqual([]);
  // And it stays shown: no later read goes back to the state before.
  for (const [name, probe] of Object.entries(probes)) {
    const again = await probe.read();
    if (!probe.shows(again))
      throw new Error(`${name}: B showed the change, then the state before it again: ${describeAnswer(again)}`);
  }
}

/** B's cache warmed with the state before the change: the same read twice, both showing it. */
async function warmOnB(read: () => Promise<void>): Promise<void> {
  await read();
  await read();
}

/** The test needs the Redis the instances share: it says so rather than pass without it (both would fail open). */
async function expectRedisReachable(): Promise<void> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: () => null,
  });
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    expect(await redis.ping()).toBe("PONG");
  } catch (error) {
    throw new Error(
      `This test runs two instances sharing a Redis and needs one: set TEST_REDIS_URL (now ${REDIS_URL}) to a reachable Redis. ${String(error)}`,
    );
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  await expectRedisReachable();
  database = await createTestDatabase();
  const [portA, portB] = [await freePort(), await freePort()];
  // One deployment: one database, one auth secret (a cookie set by A is valid on B), one Redis.
  const shared = {
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    REDIS_URL,
    ADMIN_EMAILS: adminInput.email,
  };
  // One after the other: A applies the migrations, B finds nothing left to apply.
  A = await startServerProcess({
    name: "A",
    port: portA,
    env: { ...shared, TRUSTED_ORIGINS: `http://127.0.0.1:${portB}` },
  });
  B = await startServerProcess({ name: "B", port: portB, env: { ...shared, TRUSTED_ORIGINS: A.url } });
  await withLogs(async () => {
    admin = await createVerifiedUser(adminInput);
    expect((await getSession(A, admin.browser))?.user.role).toBe("admin");
  });
}, 120_000);

afterAll(async () => {
  await db?.close();
  await Promise.all([A?.stop(), B?.stop()]);
  await database?.drop();
});

describe("a change made through instance A shows on instance B within 1 s", () => {
  scenario("sign-out: the cookie's session ends on B", async () => {
    const user = await createVerifiedUser(buildUser({ label: "Sign Out" }));
    await warmOnB(async () => expect((await getSession(B, user.browser))?.user.id).toBe(user.id));

    const signOut = expectStatus(
      await call(A, "/api/auth/sign-out", { ...user.browser, json: {} }),
      200,
      "sign-out on A",
    );
    expect(signOut.data).toEqual({ success: true });
    await expectShownOnBWithin(signOut.at, {
      "get-session": {
        read: () => call(B, "/api/auth/get-session", user.browser),
        shows: (answer) => answer.status === 200 && answer.data === null,
      },
    });
  });

  scenario("revocation: the revoked session ends on B, the user's other session stays", async () => {
    const user = await createVerifiedUser(buildUser({ label: "Revocation" }));
    const other = await signIn(A, user.input);
    const otherToken = (await getSession(A, other))!.session.token;
    await warmOnB(async () => {
      expect((await getSession(B, user.browser))?.user.id).toBe(user.id);
      expect((await getSession(B, other))?.session.token).toBe(otherToken);
    });

    const revoke = expectStatus(
      await call(A, "/api/auth/revoke-session", { ...user.browser, json: { token: otherToken } }),
      200,
      "revoke-session on A",
    );
    expect(revoke.data).toEqual({ status: true });
    await expectShownOnBWithin(revoke.at, {
      "get-session (revoked)": {
        read: () => call(B, "/api/auth/get-session", other),
        shows: (answer) => answer.status === 200 && answer.data === null,
      },
    });
    expect((await getSession(B, user.browser))?.user.id).toBe(user.id);
  });

  scenario("password change: the user's other session ends on B, and B takes only the new password", async () => {
    const user = await createVerifiedUser(buildUser({ label: "Password Change" }));
    const other = await signIn(A, user.input);
    await warmOnB(async () => expect((await getSession(B, other))?.user.id).toBe(user.id));

    const newPassword = buildUser().password;
    const change = expectStatus(
      await call(A, "/api/auth/change-password", {
        ...user.browser,
        json: { currentPassword: user.input.password, newPassword },
      }),
      200,
      "change-password on A",
    );
    await expectShownOnBWithin(change.at, {
      "get-session (other device)": {
        read: () => call(B, "/api/auth/get-session", other),
        shows: (answer) => answer.status === 200 && answer.data === null,
      },
    });
    // The device that changed it stays signed in, on B too, with the session A's answer gave it.
    expect(change.sessionCookie).toBeDefined();
    expect((await getSession(B, { ...user.browser, cookie: change.sessionCookie! }))?.user.id).toBe(user.id);
    const oldPassword = await call(B, "/api/auth/sign-in/email", {
      ip: randomIp(),
      json: { email: user.input.email, password: user.input.password },
    });
    expect({ status: oldPassword.status, body: oldPassword.data }).toEqual({
      status: 401,
      body: { code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password", requestId: expect.any(String) },
    });
    await signIn(B, { email: user.input.email, password: newPassword });
  });

  scenario("ban: the banned user's session ends on B, and B refuses their sign-in", async () => {
    const user = await createVerifiedUser(buildUser({ label: "Ban" }));
    await warmOnB(async () =>
      expect((await getSession(B, user.browser))?.user).toMatchObject({ id: user.id, banned: false }),
    );

    const ban = expectStatus(
      await call(A, "/api/auth/admin/ban-user", { ...admin.browser, json: { userId: user.id, banReason: "Spam" } }),
      200,
      "ban-user on A",
    );
    await expectShownOnBWithin(ban.at, {
      "get-session": {
        read: () => call(B, "/api/auth/get-session", user.browser),
        shows: (answer) => answer.status === 200 && answer.data === null,
      },
    });
    const refused = await call(B, "/api/auth/sign-in/email", {
      ip: randomIp(),
      json: { email: user.input.email, password: user.input.password },
    });
    expect({ status: refused.status, body: refused.data }).toEqual({
      status: 403,
      body: { code: "BANNED_USER", message: "Your account is banned.", requestId: expect.any(String) },
    });
  });

  scenario("platform role change: B's session shows the new role", async () => {
    const user = await createVerifiedUser(buildUser({ label: "Platform Role" }));
    await warmOnB(async () => expect((await getSession(B, user.browser))?.user.role).toBe("user"));

    const setRole = expectStatus(
      await call(A, "/api/auth/admin/set-role", { ...admin.browser, json: { userId: user.id, role: "admin" } }),
      200,
      "set-role on A",
    );
    await expectShownOnBWithin(setRole.at, {
      "get-session": {
        read: () => call(B, "/api/auth/get-session", user.browser),
        shows: (answer) => answer.status === 200 && (answer.data as SessionBody)?.user.role === "admin",
      },
    });
  });

  describe("organizations", () => {
    let owner: User;
    let promoted: User;
    let removed: User;
    let organizationId: string;
    let promotedMemberId: string;
    const membersPath = () => `/api/organizations/${organizationId}/members`;

    /** Invited by the owner and accepted on A, then the organization made active in the member's session. */
    async function join(user: User): Promise<string> {
      const invite = expectStatus(
        await call(A, "/api/auth/organization/invite-member", {
          ...owner.browser,
          json: { email: user.input.email, role: "member", organizationId },
        }),
        200,
        "invite-member on A",
      );
      const accept = expectStatus(
        await call(A, "/api/auth/organization/accept-invitation", {
          ...user.browser,
          json: { invitationId: (invite.data as { id: string }).id },
        }),
        200,
        "accept-invitation on A",
      );
      expectStatus(
        await call(A, "/api/auth/organization/set-active", { ...user.browser, json: { organizationId } }),
        200,
        "set-active on A",
      );
      return (accept.data as { member: { id: string } }).member.id;
    }

    beforeAll(() =>
      withLogs(async () => {
        owner = await createVerifiedUser(buildUser({ label: "Owner" }));
        promoted = await createVerifiedUser(buildUser({ label: "Promoted" }));
        removed = await createVerifiedUser(buildUser({ label: "Removed" }));
        const slug = `two-instances-${randomBytes(4).toString("hex")}`;
        const created = expectStatus(
          await call(A, "/api/auth/organization/create", { ...owner.browser, json: { name: "Two Instances", slug } }),
          200,
          "organization/create on A",
        );
        organizationId = (created.data as { id: string }).id;
        promotedMemberId = await join(promoted);
        await join(removed);
      }),
    );

    const activeMember = (user: User) => call(B, "/api/auth/organization/get-active-member", user.browser);
    const roleIn = (page: Answer, userId: string) =>
      (page.data as MembersPage).members.find((member) => member.userId === userId)?.role;

    scenario("organization role change: B's get-active-member and members list show the new role", async () => {
      await warmOnB(async () => {
        const member = expectStatus(await activeMember(promoted), 200, "get-active-member on B").data as Member;
        expect(member).toMatchObject({ id: promotedMemberId, organizationId, userId: promoted.id, role: "member" });
        expect(
          roleIn(expectStatus(await call(B, membersPath(), owner.browser), 200, "members on B"), promoted.id),
        ).toBe("member");
      });

      const update = expectStatus(
        await call(A, "/api/auth/organization/update-member-role", {
          ...owner.browser,
          json: { memberId: promotedMemberId, role: "admin", organizationId },
        }),
        200,
        "update-member-role on A",
      );
      await expectShownOnBWithin(update.at, {
        "get-active-member": {
          read: () => activeMember(promoted),
          shows: (answer) => answer.status === 200 && (answer.data as Member).role === "admin",
        },
        "members (as the owner)": {
          read: () => call(B, membersPath(), owner.browser),
          shows: (answer) => answer.status === 200 && roleIn(answer, promoted.id) === "admin",
        },
      });
    });

    scenario(
      "removal from an organization: on B it leaves the user's list, membership and members access",
      async () => {
        const listed = (answer: Answer) =>
          (answer.data as Array<{ id: string }>).some((organization) => organization.id === organizationId);
        await warmOnB(async () => {
          expect(
            listed(
              expectStatus(
                await call(B, "/api/auth/organization/list", removed.browser),
                200,
                "organization/list on B",
              ),
            ),
          ).toBe(true);
          expect(
            (expectStatus(await activeMember(removed), 200, "get-active-member on B").data as Member).organizationId,
          ).toBe(organizationId);
          expect(
            roleIn(expectStatus(await call(B, membersPath(), removed.browser), 200, "members on B"), removed.id),
          ).toBe("member");
        });

        const remove = expectStatus(
          await call(A, "/api/auth/organization/remove-member", {
            ...owner.browser,
            json: { memberIdOrEmail: removed.input.email, organizationId },
          }),
          200,
          "remove-member on A",
        );
        await expectShownOnBWithin(remove.at, {
          "organization/list": {
            read: () => call(B, "/api/auth/organization/list", removed.browser),
            shows: (answer) => answer.status === 200 && !listed(answer),
          },
          "get-active-member": {
            read: () => activeMember(removed),
            shows: (answer) =>
              answer.status !== 200 || (answer.data as Member | null)?.organizationId !== organizationId,
          },
          members: { read: () => call(B, membersPath(), removed.browser), shows: (answer) => answer.status === 403 },
        });
        // The removal also cleared the organization from the member's sessions (clearActiveOrganization).
        const active = await activeMember(removed);
        expect({ status: active.status, body: active.data }).toEqual({
          status: 400,
          body: { code: "NO_ACTIVE_ORGANIZATION", message: "no active organization", requestId: expect.any(String) },
        });
        const members = await call(B, membersPath(), removed.browser);
        expect({ status: members.status, body: members.data }).toEqual({
          status: 403,
          body: {
            code: "FORBIDDEN",
            message: "user is not a member of the organization",
            requestId: expect.any(String),
          },
        });
        // The others keep theirs.
        expect(
          roleIn(expectStatus(await call(B, membersPath(), owner.browser), 200, "members on B"), promoted.id),
        ).toBe("admin");
      },
    );
  });
});

describe("rate limits are shared between the instances through Redis", () => {
  scenario(
    "wrong-password sign-ins from one address, alternating A and B: 10 answer 401, the 11th and 12th 429",
    async () => {
      const user = await createVerifiedUser(buildUser({ label: "Rate Limited" }));
      const ip = randomIp();
      const attempt = (instance: Instance) =>
        call(instance, "/api/auth/sign-in/email", {
          ip,
          json: { email: user.input.email, password: "not-the-password" },
        });
      const answers: Array<{ instance: string; status: number }> = [];
      for (let index = 0; index < SIGN_IN_LIMIT + 2; index += 1) {
        const instance = index % 2 === 0 ? A : B;
        answers.push({ instance: instance.name, status: (await attempt(instance)).status });
      }
      expect(answers).toEqual([
        ...Array.from({ length: SIGN_IN_LIMIT }, (_, index) => ({
          instance: index % 2 === 0 ? "A" : "B",
          status: 401,
        })),
        { instance: "A", status: 429 },
        { instance: "B", status: 429 },
      ]);
      const limited = await attempt(B);
      expect({ status: limited.status, body: limited.data }).toEqual({
        status: 429,
        body: {
          code: "TOO_MANY_REQUESTS",
          message: "Too many requests. Please try again later.",
          requestId: expect.any(String),
        },
      });

      // Counted in Redis (every attempt, refused ones too), not in the database both instances share.
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await redis.connect();
        expect(await redis.get(`${RATE_LIMIT_PREFIX}${ip}|/sign-in/email`)).toBe(String(SIGN_IN_LIMIT + 3));
      } finally {
        redis.disconnect();
      }
      db ??= openDatabase(
        database.dialect === "postgres"
          ? { dialect: "postgres", url: database.url }
          : { dialect: "sqlite", file: database.url },
      );
      const rows = await db.db.selectFrom("rateLimit").select("key").where("key", "like", `${ip}|%`).execute();
      expect(rows).toEqual([]);
    },
  );
});
