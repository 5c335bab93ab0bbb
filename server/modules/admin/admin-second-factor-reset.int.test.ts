import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminUserDetail } from "../../../common/admin.schemas";
import {
  actorOf,
  entry,
  findEntries,
  makePlatformAdmin,
  sentBy,
  startAuditServer,
  stopAuditServer,
  withAgent,
} from "../../test/audit-harness";
import { createVerifiedUser, getSession, readLatestMail, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * A platform admin resets the second factors of a user who lost them all: the TOTP secret, backup codes and passkeys
 * go and TOTP is turned off, every session of the user ends, the reason is in the audit log and the user is mailed,
 * all in one transaction; a refused reset changes nothing.
 */

let server: TestApp;
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});
afterAll(stopAuditServer);

const resetPath = (userId: string) => `/api/admin/users/${userId}/two-factor/reset`;

/** A user with TOTP on (its secret row) and `passkeys` passkeys, signed in. */
async function userWithFactors(label: string, options: { totp: boolean; passkeys: number }) {
  const user = await createVerifiedUser(server, { label });
  if (options.totp) {
    await server.db.updateTable("user").set({ twoFactorEnabled: 1 }).where("id", "=", user.id).execute();
    await server.db
      .insertInto("twoFactor")
      .values({ id: randomUUID(), secret: "encrypted-secret", backupCodes: "encrypted-codes", userId: user.id })
      .execute();
  }
  for (let index = 0; index < options.passkeys; index++) {
    await server.db
      .insertInto("passkey")
      .values({
        id: randomUUID(),
        name: `Key ${index + 1}`,
        publicKey: "cHVibGljLWtleQ",
        userId: user.id,
        credentialID: randomUUID(),
        counter: 0,
        deviceType: "singleDevice",
        backedUp: 0,
        transports: "internal",
        createdAt: new Date().toISOString(),
        aaguid: null,
      })
      .execute();
  }
  return user;
}

async function factorsOf(userId: string) {
  const detail = await platformAdmin.client.get(`/api/admin/users/${userId}`);
  expect(detail.status).toBe(200);
  return (detail.data as AdminUserDetail).secondFactors;
}

const countRows = async (table: "twoFactor" | "passkey" | "session", userId: string) =>
  Number(
    (
      await server.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("count"))
        .where("userId", "=", userId)
        .executeTakeFirstOrThrow()
    ).count,
  );

describe("resetting a user's second factors", () => {
  it("removes TOTP and passkeys, ends every session, records the reason and mails the user", async () => {
    const user = await userWithFactors("locked-out", { totp: true, passkeys: 2 });
    expect(await factorsOf(user.id)).toEqual({ totp: true, passkeys: 2 });
    expect((await getSession(user.client))?.user.id).toBe(user.id);

    const response = await platformAdmin.client.post(
      resetPath(user.id),
      { reason: "Lost phone and backup codes; identity checked, ticket 815" },
      withAgent,
    );
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ totp: true, passkeys: 2, sessionsRevoked: 1 });

    expect(await factorsOf(user.id)).toEqual({ totp: false, passkeys: 0 });
    expect(await countRows("twoFactor", user.id)).toBe(0);
    expect(await countRows("passkey", user.id)).toBe(0);
    expect(await countRows("session", user.id)).toBe(0);
    expect((await user.client.get("/api/auth/get-session")).data).toBeNull();

    expect(await findEntries({ targetId: user.id, action: "user.two_factor_reset" })).toEqual([
      entry({
        action: "user.two_factor_reset",
        actor: actorOf(platformAdmin),
        target: { type: "user", id: user.id, label: user.email },
        reason: "Lost phone and backup codes; identity checked, ticket 815",
        details: { totp: true, passkeys: 2, sessionsRevoked: 1 },
        ...sentBy(platformAdmin),
      }),
    ]);
    const mail = await readLatestMail(server, user.email, (sent) => sent.subject.startsWith("Your second factors"));
    expect(mail.subject).toBe("Your second factors were reset — Atrium");
    expect(mail.text).toContain("Every session of your account was signed out.");
    expect(mail.text).toContain(`${server.config.baseUrl}/sign-in`);
  });

  it("resets a user who has only a passkey", async () => {
    const user = await userWithFactors("passkey-only", { totp: false, passkeys: 1 });
    const response = await platformAdmin.client.post(resetPath(user.id), { reason: "Lost the security key" });
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ totp: false, passkeys: 1, sessionsRevoked: 1 });
    expect(await factorsOf(user.id)).toEqual({ totp: false, passkeys: 0 });
  });

  it("refuses a user without a second factor, and an unknown user, recording nothing", async () => {
    const user = await userWithFactors("no-factor", { totp: false, passkeys: 0 });
    const refused = await expectError(
      await platformAdmin.client.post(resetPath(user.id), { reason: "Just in case" }),
      400,
      "This user has no second factor to reset",
    );
    expect(refused.code).toBe("NO_SECOND_FACTOR");
    await expectError(
      await platformAdmin.client.post(resetPath("no-such-user"), { reason: "Typo" }),
      404,
      "user not found",
    );
    expect(await countRows("session", user.id)).toBe(1);
    expect(await findEntries({ targetId: user.id, action: "user.two_factor_reset" })).toEqual([]);
  });

  it("requires a reason of 1 to 500 characters, and changes nothing without one", async () => {
    const user = await userWithFactors("reasonless", { totp: true, passkeys: 0 });
    await expectError(
      await platformAdmin.client.post(resetPath(user.id), {}),
      400,
      "reason: Say why, for the audit log",
    );
    await expectError(
      await platformAdmin.client.post(resetPath(user.id), { reason: "   " }),
      400,
      "reason: Say why, for the audit log",
    );
    await expectError(
      await platformAdmin.client.post(resetPath(user.id), { reason: "x".repeat(501) }),
      400,
      "reason: Use at most 500 characters",
    );
    expect(await factorsOf(user.id)).toEqual({ totp: true, passkeys: 0 });
    expect((await platformAdmin.client.post(resetPath(user.id), { reason: "x".repeat(500) })).status).toBe(200);
  });

  it("is refused to anyone but a platform admin, and to an admin impersonating someone", async () => {
    const user = await userWithFactors("guarded", { totp: true, passkeys: 0 });
    const other = await createVerifiedUser(server, { label: "not-admin" });
    const refusal = "You are not allowed to access resource: user";
    await expectError(await other.client.post(resetPath(user.id), { reason: "Let me in" }), 403, refusal);
    await expectError(
      await createClient(server).post(resetPath(user.id), { reason: "Anonymous" }),
      401,
      "Unauthorized",
    );
    const impersonator = await makePlatformAdmin("impersonator");
    const started = await impersonator.client.post("/api/auth/admin/impersonate-user", {
      userId: other.id,
      reason: "Support ticket 99",
    });
    expect(started.status).toBe(200);
    await expectError(
      await impersonator.client.post(resetPath(user.id), { reason: "While impersonating" }),
      403,
      refusal,
    );
    expect(await factorsOf(user.id)).toEqual({ totp: true, passkeys: 0 });
  });
});
