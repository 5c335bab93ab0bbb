import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FRESH_AUTHENTICATION_REQUIRED_MESSAGE } from "../../common/error-codes";
import { productIdOf, subscribe } from "../test/billing";
import { buildUser, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../test/factories";
import { expectError, type TestResponse } from "../test/request";
import { SoftwareCredential, type CeremonyOptions } from "../test/software-authenticator";
import { createTestApp, type TestApp } from "../test/test-database";

/**
 * Fresh authentication (server/auth/fresh-authentication.ts): each sensitive action passes for a session that signed
 * in within 10 minutes, is refused with 403 FRESH_AUTHENTICATION_REQUIRED for an older one, and passes again after a
 * re-check of the password or an authenticator code; an impersonation's session never passes. Sessions are aged by
 * moving their rows' timestamps back, as 11 minutes of waiting would.
 */

const adminEmail = buildUser().email;
let app: TestApp;

beforeAll(async () => {
  // On a port: the billing sandbox answers the app over HTTP.
  app = await createTestApp({ listen: true, env: { ADMIN_EMAILS: adminEmail } });
});

afterAll(async () => {
  await app?.close();
});

const ELEVEN_MINUTES_MS = 11 * 60 * 1000;

/** Every session of the user as if it signed in (and re-checked) 11 minutes ago. */
async function ageSessions(userId: string): Promise<void> {
  const past = new Date(Date.now() - ELEVEN_MINUTES_MS).toISOString();
  await app.db
    .updateTable("session")
    .set({ createdAt: past, updatedAt: past, reauthenticatedAt: null })
    .where("userId", "=", userId)
    .execute();
}

const reauthenticate = (user: TestUser, body: Record<string, unknown>) =>
  user.client.post("/api/account/reauthenticate", body);

async function expectFreshAuthenticationRequired(response: TestResponse) {
  const body = await expectError(response, 403, FRESH_AUTHENTICATION_REQUIRED_MESSAGE);
  expect(body.code).toBe("FRESH_AUTHENTICATION_REQUIRED");
  return body as { details?: unknown };
}

/** A sensitive action: what it needs set up (on a fresh session), then the call itself. */
type SensitiveAction = {
  name: string;
  prepare(user: TestUser): Promise<() => Promise<TestResponse>>;
};

/** The base32 (RFC 4648) secret of an otpauth URI, as bytes. */
function base32Bytes(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of text.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

/** The 6-digit TOTP code (30 s steps) of `secret` at step `counter` (RFC 6238, HMAC-SHA1). */
function totpAt(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac("sha1", secret).update(message).digest();
  const offset = (digest.at(-1) ?? 0) & 15;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

const currentStep = () => Math.floor(Date.now() / 30_000);

/** Turns an authenticator app on for the user; returns its secret. */
async function enableTotp(user: TestUser): Promise<Buffer> {
  const enabled = await user.client.post("/api/auth/two-factor/enable", { password: user.input.password });
  expect(enabled.status).toBe(200);
  const secret = base32Bytes(new URL((enabled.data as { totpURI: string }).totpURI).searchParams.get("secret") ?? "");
  const verified = await user.client.post("/api/auth/two-factor/verify-totp", { code: totpAt(secret, currentStep()) });
  expect(verified.status).toBe(200);
  return secret;
}

/** The challenge the signed-in client gets for a passkey, as the browser would read it (its cookie kept). */
async function passkeyChallenge(user: TestUser): Promise<CeremonyOptions> {
  const options = await user.client.get("/api/auth/passkey/generate-authenticate-options");
  expect(options.status).toBe(200);
  const { challenge, rpId } = options.data as { challenge: string; rpId: string };
  return { challenge, rpId, origin: new URL(app.config.baseUrl).origin };
}

/** Adds a passkey of a software authenticator to the user's account. */
async function addPasskey(user: TestUser): Promise<SoftwareCredential> {
  const options = await user.client.get("/api/auth/passkey/generate-register-options");
  expect(options.status).toBe(200);
  const { challenge, rp } = options.data as { challenge: string; rp: { id: string } };
  const credential = new SoftwareCredential();
  const response = credential.register({ challenge, rpId: rp.id, origin: new URL(app.config.baseUrl).origin });
  expect((await user.client.post("/api/auth/passkey/verify-registration", { response, name: "Laptop" })).status).toBe(
    200,
  );
  return credential;
}

const ACTIONS: SensitiveAction[] = [
  {
    name: "deleting the account",
    prepare: async (user) => () => user.client.post("/api/auth/delete-user", { password: user.input.password }),
  },
  {
    name: "changing the e-mail address",
    prepare: async (user) => () =>
      user.client.post("/api/auth/change-email", { newEmail: buildUser().email, callbackURL: "/account" }),
  },
  {
    name: "changing the password",
    prepare: async (user) => () =>
      user.client.post("/api/auth/change-password", {
        currentPassword: user.input.password,
        newPassword: buildUser().password,
      }),
  },
  {
    name: "turning the authenticator app off",
    prepare: async (user) => {
      await enableTotp(user);
      return () => user.client.post("/api/auth/two-factor/disable", { password: user.input.password });
    },
  },
  {
    name: "deleting an organization",
    prepare: async (user) => {
      const organization = await createOrganizationWithOwner(user, "Doomed");
      return () => user.client.post("/api/auth/organization/delete", { organizationId: organization.id });
    },
  },
  {
    name: "changing the organization's plan",
    prepare: async (user) => {
      const organization = await createOrganizationWithOwner(user, "Paying");
      await subscribe(app, user, organization.id, { productId: await productIdOf(user.client, "team") });
      const pro = await productIdOf(user.client, "pro");
      return () => user.client.post(`/api/organizations/${organization.id}/billing/subscription`, { productId: pro });
    },
  },
  {
    name: "cancelling the organization's plan",
    prepare: async (user) => {
      const organization = await createOrganizationWithOwner(user, "Leaving");
      await subscribe(app, user, organization.id, { productId: await productIdOf(user.client, "team") });
      return () =>
        user.client.post(`/api/organizations/${organization.id}/billing/subscription`, { cancelAtPeriodEnd: true });
    },
  },
];

describe.each(ACTIONS)("$name", ({ prepare }) => {
  test("passes for a session that signed in within 10 minutes", async () => {
    const user = await createVerifiedUser(app);
    const perform = await prepare(user);
    expect((await perform()).status).toBe(200);
  });

  test("is refused for an older session, then passes once the password is re-checked", async () => {
    const user = await createVerifiedUser(app);
    const perform = await prepare(user);
    await ageSessions(user.id);

    const refused = await expectFreshAuthenticationRequired(await perform());
    expect(refused.details).toMatchObject({ password: true, providers: [] });

    await expectError(await reauthenticate(user, { password: "not-the-password" }), 400, "Invalid password");
    await expectFreshAuthenticationRequired(await perform());

    const rechecked = await reauthenticate(user, { password: user.input.password });
    expect(rechecked.status).toBe(200);
    expect(rechecked.data).toEqual({ status: true });
    expect((await perform()).status).toBe(200);
  });
});

describe("POST /api/account/reauthenticate", () => {
  test("keeps the same session: no new session, no new cookie", async () => {
    const user = await createVerifiedUser(app);
    await ageSessions(user.id);
    const before = await app.db.selectFrom("session").select("id").where("userId", "=", user.id).execute();

    const rechecked = await reauthenticate(user, { password: user.input.password });
    expect(rechecked.status).toBe(200);
    expect(rechecked.headers.get("set-cookie")).toBeNull();

    const after = await app.db
      .selectFrom("session")
      .select(["id", "reauthenticatedAt"])
      .where("userId", "=", user.id)
      .execute();
    expect(after.map((session) => session.id)).toEqual(before.map((session) => session.id));
    expect(after[0]?.reauthenticatedAt).not.toBeNull();
  });

  test("a code of the authenticator app re-checks too; a wrong code is refused", async () => {
    const user = await createVerifiedUser(app);
    const secret = await enableTotp(user);
    await ageSessions(user.id);
    const deleteAccount = () => user.client.post("/api/auth/delete-user", { password: user.input.password });
    const refused = await expectFreshAuthenticationRequired(await deleteAccount());
    expect(refused.details).toEqual({ password: true, totp: true, passkey: false, providers: [] });

    const wrong = totpAt(secret, currentStep() + 5);
    await expectError(await reauthenticate(user, { code: wrong }), 400, "the code is wrong or has expired");
    await expectFreshAuthenticationRequired(await deleteAccount());

    // The next step's code: the one the enrolment used may not be used twice.
    expect((await reauthenticate(user, { code: totpAt(secret, currentStep() + 1) })).status).toBe(200);
    expect((await deleteAccount()).status).toBe(200);
  });

  test("a passkey of the account re-checks too, without a new session; others and replays are refused", async () => {
    const user = await createVerifiedUser(app);
    const credential = await addPasskey(user);
    const other = await createVerifiedUser(app);
    const othersCredential = await addPasskey(other);
    await ageSessions(user.id);
    const deleteAccount = () => user.client.post("/api/auth/delete-user", { password: user.input.password });
    const refused = await expectFreshAuthenticationRequired(await deleteAccount());
    expect(refused.details).toEqual({ password: true, totp: false, passkey: true, providers: [] });
    const sessions = () =>
      app.db.selectFrom("session").select("id").where("userId", "in", [user.id, other.id]).orderBy("id").execute();
    const before = await sessions();

    // Another account's passkey, answering this session's own challenge.
    const othersAnswer = othersCredential.authenticate(await passkeyChallenge(user));
    await expectError(await reauthenticate(user, { passkey: othersAnswer }), 400, "Invalid passkey");
    // The account's passkey, signing for another site.
    const elsewhere = credential.authenticate({ ...(await passkeyChallenge(user)), origin: "https://elsewhere.test" });
    await expectError(await reauthenticate(user, { passkey: elsewhere }), 400, "Invalid passkey");
    // Not an answer at all.
    await expectError(await reauthenticate(user, { passkey: { id: credential.id } }), 400, "Invalid input");
    await expectFreshAuthenticationRequired(await deleteAccount());

    const answer = credential.authenticate(await passkeyChallenge(user));
    const rechecked = await reauthenticate(user, { passkey: answer });
    expect(rechecked.status).toBe(200);
    expect(rechecked.headers.get("set-cookie")).toBeNull();
    expect(await sessions()).toEqual(before);
    // Its challenge was used: the same answer again is refused.
    await expectError(await reauthenticate(user, { passkey: answer }), 400, "Invalid passkey");
    expect((await deleteAccount()).status).toBe(200);
  });

  test("a code is refused for an account without an authenticator app", async () => {
    const user = await createVerifiedUser(app);
    await expectError(await reauthenticate(user, { code: "123456" }), 400, "the code is wrong or has expired");
  });

  test("wrong passwords are rate limited", async () => {
    const user = await createVerifiedUser(app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await reauthenticate(user, { password: `wrong-${attempt}` })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    // The limit holds for the right password too, until its window ends.
    expect((await reauthenticate(user, { password: user.input.password })).status).toBe(429);
  });

  test("without a session answers 401", async () => {
    const user = await createVerifiedUser(app);
    await expectError(
      await user.client.post("/api/account/reauthenticate", { password: "x" }, { withoutCookies: true }),
      401,
      "Unauthorized",
    );
  });
});

describe("impersonation", () => {
  test("an admin impersonating a user can neither take a sensitive action nor re-check", async () => {
    const admin = await createVerifiedUser(app, { label: "Listed Admin", email: adminEmail });
    const user = await createVerifiedUser(app);
    const started = await admin.client.post("/api/auth/admin/impersonate-user", {
      userId: user.id,
      reason: "Support ticket 26",
    });
    expect(started.status).toBe(200);

    // The impersonation's session is seconds old, yet not fresh.
    const refused = await expectFreshAuthenticationRequired(
      await admin.client.post("/api/auth/delete-user", { password: user.input.password }),
    );
    expect(refused.details).toEqual({ password: false, totp: false, passkey: false, providers: [] });
    await expectFreshAuthenticationRequired(
      await admin.client.post("/api/auth/change-email", { newEmail: buildUser().email, callbackURL: "/account" }),
    );

    await expectError(
      await admin.client.post("/api/account/reauthenticate", { password: user.input.password }),
      403,
      "an impersonation's session cannot be re-checked",
    );
    await expectFreshAuthenticationRequired(
      await admin.client.post("/api/auth/delete-user", { password: user.input.password }),
    );
    const row = await app.db.selectFrom("user").select("id").where("id", "=", user.id).executeTakeFirst();
    expect(row?.id).toBe(user.id);
  });
});
