import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createVerifiedUser, getSession, type TestUser } from "../test/factories";
import { recordingLogger, type LogRecord } from "../test/recording-logger";
import { createClient, expectError, type TestClient } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";
import { totpCode, totpSecretOf } from "../test/totp";
import { CODE_ATTEMPTS_PER_SIGN_IN } from "./two-factor";

const WRONG_CODE = "the code is wrong or has expired";
const WRONG_BACKUP_CODE = "the backup code is wrong or was already used";
const ATTEMPT_ENDED = "too many wrong codes: this sign-in has ended, sign in again with your password";
const SIGN_IN_ENDED = "this sign-in has ended or expired: sign in again with your password";

let app: TestApp;
const logs: LogRecord[] = [];

beforeAll(async () => {
  app = await createTestApp({ logger: recordingLogger(logs) });
});
afterAll(async () => {
  await app?.close();
});

type Enrolled = { user: TestUser; totpURI: string; backupCodes: string[] };

/** A user who turned the second factor on: enabled, then confirmed with the code of the current step. */
async function enrolledUser(): Promise<Enrolled> {
  const user = await createVerifiedUser(app);
  const enabled = await user.client.post("/api/auth/two-factor/enable", { password: user.input.password });
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] };
  const confirmed = await user.client.post("/api/auth/two-factor/verify-totp", { code: await totpCode(totpURI) });
  expect(confirmed.status).toBe(200);
  return { user, totpURI, backupCodes };
}

/** A password sign-in on a new device that stops at the second step. */
async function pendingSignIn(user: TestUser, by: "email" | "username" = "email"): Promise<TestClient> {
  const client = createClient(app);
  const answer =
    by === "email"
      ? await client.post("/api/auth/sign-in/email", { email: user.email, password: user.input.password })
      : await client.post("/api/auth/sign-in/username", { username: user.username, password: user.input.password });
  expect(answer.status).toBe(200);
  expect(answer.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
  expect(await getSession(client)).toBeNull();
  return client;
}

async function twoFactorEnabledOf(userId: string): Promise<boolean> {
  const row = await app.db.selectFrom("user").select("twoFactorEnabled").where("id", "=", userId).executeTakeFirst();
  return Boolean(row?.twoFactorEnabled);
}

describe("turning the second factor on", () => {
  test("enable answers a TOTP URI and 10 backup codes; the first right code turns it on", async () => {
    const user = await createVerifiedUser(app);
    const enabled = await user.client.post("/api/auth/two-factor/enable", { password: user.input.password });
    expect(enabled.status).toBe(200);
    const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] };
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Atrium:/);
    expect(new URL(totpURI).searchParams.get("issuer")).toBe("Atrium");
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);

    // Not on before the code confirms it: a sign-in still opens a session at once.
    expect(await twoFactorEnabledOf(user.id)).toBe(false);
    const early = createClient(app);
    const signedIn = await early.post("/api/auth/sign-in/email", { email: user.email, password: user.input.password });
    expect(signedIn.status).toBe(200);
    expect(signedIn.data.twoFactorRedirect).toBeUndefined();

    const wrong = await user.client.post("/api/auth/two-factor/verify-totp", { code: "000000" });
    await expectError(wrong, 400, WRONG_CODE);
    expect(await twoFactorEnabledOf(user.id)).toBe(false);

    const right = await user.client.post("/api/auth/two-factor/verify-totp", { code: await totpCode(totpURI) });
    expect(right.status).toBe(200);
    expect(await twoFactorEnabledOf(user.id)).toBe(true);
    expect((await getSession(user.client))?.user.id).toBe(user.id);

    const again = await user.client.post("/api/auth/two-factor/enable", { password: user.input.password });
    await expectError(again, 400, "two-factor authentication is already on");
  });

  test("enable with a wrong password is refused and sets nothing up", async () => {
    const user = await createVerifiedUser(app);
    const refused = await user.client.post("/api/auth/two-factor/enable", { password: "not-the-password-1" });
    await expectError(refused, 400, "Invalid password");
    expect(await app.db.selectFrom("twoFactor").where("userId", "=", user.id).selectAll().execute()).toEqual([]);
  });

  test("the TOTP secret and the backup codes are stored encrypted, and nothing of them is logged", async () => {
    const { user, totpURI, backupCodes } = await enrolledUser();
    const row = await app.db
      .selectFrom("twoFactor")
      .select(["secret", "backupCodes"])
      .where("userId", "=", user.id)
      .executeTakeFirstOrThrow();
    const base32Secret = totpSecretOf(totpURI);
    const rawSecret = Buffer.from(
      // The URI carries the secret's bytes in base32; the stored value must hold neither form.
      (await import("@better-auth/utils/base32")).base32.decode(base32Secret),
    ).toString("utf8");
    for (const stored of [row.secret, row.backupCodes]) {
      expect(stored).not.toContain(base32Secret);
      expect(stored).not.toContain(rawSecret);
      for (const code of backupCodes) expect(stored).not.toContain(code);
    }
    const logged = JSON.stringify(logs);
    expect(logged).not.toContain(base32Secret);
    expect(logged).not.toContain(rawSecret);
    for (const code of backupCodes) expect(logged).not.toContain(code);
  });
});

describe("signing in with the second factor on", () => {
  test("by e-mail: no session until the TOTP code; the code opens it", async () => {
    const { user, totpURI } = await enrolledUser();
    const client = await pendingSignIn(user);
    const done = await client.post("/api/auth/two-factor/verify-totp", { code: await totpCode(totpURI, 1) });
    expect(done.status).toBe(200);
    expect((await getSession(client))?.user.id).toBe(user.id);
  });

  test("by username: a backup code opens the session, and works once", async () => {
    const { user, backupCodes } = await enrolledUser();
    const [code] = backupCodes as [string];
    const client = await pendingSignIn(user, "username");
    const done = await client.post("/api/auth/two-factor/verify-backup-code", { code });
    expect(done.status).toBe(200);
    expect((await getSession(client))?.user.id).toBe(user.id);

    const second = await pendingSignIn(user, "username");
    await expectError(await second.post("/api/auth/two-factor/verify-backup-code", { code }), 400, WRONG_BACKUP_CODE);
    expect(await getSession(second)).toBeNull();
  });

  test("a TOTP code cannot be used twice, nor a code of an earlier step once a later one was used", async () => {
    const { user, totpURI } = await enrolledUser();
    const enrolmentCode = await totpCode(totpURI);
    const replayOfEnrolment = await pendingSignIn(user);
    await expectError(
      await replayOfEnrolment.post("/api/auth/two-factor/verify-totp", { code: enrolmentCode }),
      400,
      WRONG_CODE,
    );
    expect(await getSession(replayOfEnrolment)).toBeNull();

    const nextCode = await totpCode(totpURI, 1);
    const first = await pendingSignIn(user);
    expect((await first.post("/api/auth/two-factor/verify-totp", { code: nextCode })).status).toBe(200);
    const replay = await pendingSignIn(user);
    await expectError(await replay.post("/api/auth/two-factor/verify-totp", { code: nextCode }), 400, WRONG_CODE);
    expect(await getSession(replay)).toBeNull();
  });

  test(`the sign-in ends at its ${CODE_ATTEMPTS_PER_SIGN_IN}th wrong code; a new sign-in with the password works`, async () => {
    const { user, totpURI, backupCodes } = await enrolledUser();
    const client = await pendingSignIn(user);
    for (let attempt = 1; attempt < CODE_ATTEMPTS_PER_SIGN_IN; attempt += 1) {
      await expectError(await client.post("/api/auth/two-factor/verify-totp", { code: "000000" }), 400, WRONG_CODE);
    }
    await expectError(
      await client.post("/api/auth/two-factor/verify-backup-code", { code: "wrong-code" }),
      400,
      ATTEMPT_ENDED,
    );
    // Ended: even the right code no longer opens a session, with or without the old cookie.
    await expectError(
      await client.post("/api/auth/two-factor/verify-totp", { code: await totpCode(totpURI, 1) }),
      401,
      SIGN_IN_ENDED,
    );
    expect(await getSession(client)).toBeNull();

    const again = await pendingSignIn(user);
    const done = await again.post("/api/auth/two-factor/verify-backup-code", { code: backupCodes[0] });
    expect(done.status).toBe(200);
  });

  test("a locked account's code checks answer 429 with the seconds until the lock ends", async () => {
    const { user, totpURI } = await enrolledUser();
    // Ten wrong codes in a row lock it: two sign-ins of five wrong codes each.
    for (const round of [1, 2]) {
      const client = await pendingSignIn(user);
      for (let attempt = 1; attempt <= CODE_ATTEMPTS_PER_SIGN_IN; attempt += 1) {
        const answer = await client.post("/api/auth/two-factor/verify-totp", { code: "000000" });
        expect(answer.status, `round ${round}, attempt ${attempt}`).toBe(400);
      }
    }
    const client = await pendingSignIn(user);
    const locked = await client.post("/api/auth/two-factor/verify-totp", { code: await totpCode(totpURI, 1) });
    const body = await expectError(
      locked,
      429,
      "too many wrong codes for this account: wait 15 minutes, then sign in again",
    );
    expect(body.code).toBe("ACCOUNT_TEMPORARILY_LOCKED");
    const wait = Number(locked.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(15 * 60 - 30);
    expect(wait).toBeLessThanOrEqual(15 * 60);

    // Later in the lock, the wait is shorter: it counts down to the lock's end.
    const lockEnd = new Date(Date.now() + 120_000).toISOString();
    await app.db.updateTable("twoFactor").set({ lockedUntil: lockEnd }).where("userId", "=", user.id).execute();
    const later = await client.post("/api/auth/two-factor/verify-backup-code", { code: "wrong-code" });
    expect(later.status).toBe(429);
    expect(Number(later.headers.get("retry-after"))).toBeGreaterThan(100);
    expect(Number(later.headers.get("retry-after"))).toBeLessThanOrEqual(120);
  });

  test("a code check without a pending sign-in is refused", async () => {
    const answer = await createClient(app).post("/api/auth/two-factor/verify-totp", { code: "123456" });
    await expectError(answer, 401, SIGN_IN_ENDED);
  });

  test("the code checks are rate limited per client address", async () => {
    const client = createClient(app);
    const statuses: number[] = [];
    for (let call = 0; call < 11; call += 1)
      statuses.push((await client.post("/api/auth/two-factor/verify-totp", { code: "123456" })).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });
});

describe("managing the second factor", () => {
  test("new backup codes need the password and replace the old ones", async () => {
    const { user, backupCodes } = await enrolledUser();
    const refused = await user.client.post("/api/auth/two-factor/generate-backup-codes", { password: "wrong-pass-1" });
    await expectError(refused, 400, "Invalid password");

    const generated = await user.client.post("/api/auth/two-factor/generate-backup-codes", {
      password: user.input.password,
    });
    expect(generated.status).toBe(200);
    const fresh = (generated.data as { backupCodes: string[] }).backupCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => backupCodes.includes(code))).toEqual([]);

    const withOld = await pendingSignIn(user);
    await expectError(
      await withOld.post("/api/auth/two-factor/verify-backup-code", { code: backupCodes[0] }),
      400,
      WRONG_BACKUP_CODE,
    );
    expect((await withOld.post("/api/auth/two-factor/verify-backup-code", { code: fresh[0] })).status).toBe(200);
  });

  test("turning it off needs the password; then a sign-in opens a session at once", async () => {
    const { user } = await enrolledUser();
    await expectError(
      await user.client.post("/api/auth/two-factor/disable", { password: "wrong-pass-1" }),
      400,
      "Invalid password",
    );
    expect(await twoFactorEnabledOf(user.id)).toBe(true);

    const off = await user.client.post("/api/auth/two-factor/disable", { password: user.input.password });
    expect(off.status).toBe(200);
    expect(await twoFactorEnabledOf(user.id)).toBe(false);
    expect(await app.db.selectFrom("twoFactor").where("userId", "=", user.id).selectAll().execute()).toEqual([]);

    const client = createClient(app);
    const signedIn = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.input.password });
    expect(signedIn.status).toBe(200);
    expect((await getSession(client))?.user.id).toBe(user.id);
  });
});
