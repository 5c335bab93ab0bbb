import { getCurrentAdapter, runWithTransaction } from "@better-auth/core/context";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activeOrganizationOf,
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  signInOnNewClient,
  type TestUser,
} from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-database";
import { currentDatabase } from "../../db/current-database";
import { withTimeout } from "../../timeout";
import { organizationHooks } from "./index";

/**
 * Hooks that run inside one of better-auth's transactions query through `currentDatabase(db)`. On SQLite
 * the transaction holds the only connection: a query through the app's own Kysely instance would wait for
 * it forever. Each step here is bounded, so a hook that bypasses the helper fails the test instead of
 * hanging it.
 */

const DEADLOCK_TIMEOUT_MS = 5_000;

async function withinDeadline<T>(work: Promise<T>, what: string): Promise<T> {
  const waiting = "a query waits for the transaction's connection";
  const message = `${what} did not finish within ${DEADLOCK_TIMEOUT_MS} ms: ${waiting}`;
  return await withTimeout(DEADLOCK_TIMEOUT_MS, message, () => work);
}

let app: TestApp;
let owner: TestUser;

beforeAll(async () => {
  app = await createTestApp();
  owner = await createVerifiedUser(app, { label: "owner" });
});

afterAll(async () => {
  await app?.close();
});

describe("hooks inside better-auth's transactions", () => {
  it("an organization hook queries through the transaction: it neither waits for the connection nor misses the transaction's writes", async () => {
    const organization = await createOrganizationWithOwner(owner, "Inside");
    const member = await createVerifiedUser(app, { label: "member" });
    await addMember(owner, organization.id, member);
    const context = await app.services.auth.$context;
    const hooks = organizationHooks(app.db);

    await runWithTransaction(context.adapter, async () => {
      // A write inside the transaction first: it holds the session rows (on PostgreSQL) and the only
      // connection (on SQLite) until the transaction ends.
      const transaction = await getCurrentAdapter(context.adapter);
      await transaction.updateMany({
        model: "session",
        where: [{ field: "userId", value: member.id }],
        update: { activeOrganizationId: organization.id },
      });
      await withinDeadline(
        hooks.afterRemoveMember({ member: { userId: member.id }, organization: { id: organization.id } }),
        "afterRemoveMember",
      );
      // The hook's query ran in this transaction: it sees (and has cleared) what the transaction wrote.
      const sessions = await (
        await currentDatabase(app.db)
      )
        .selectFrom("session")
        .select("activeOrganizationId")
        .where("userId", "=", member.id)
        .execute();
      expect(sessions.map((session) => session.activeOrganizationId)).toEqual(sessions.map(() => null));
    });

    const committed = await app.db
      .selectFrom("session")
      .select("activeOrganizationId")
      .where("userId", "=", member.id)
      .execute();
    expect(committed.length).toBeGreaterThan(0);
    expect(committed.every((session) => session.activeOrganizationId === null)).toBe(true);
  });

  it("removing a member runs the rules and the hook inside one transaction and answers (no deadlock)", async () => {
    const organization = await createOrganizationWithOwner(owner, "Removal");
    const member = await createVerifiedUser(app, { label: "removed" });
    const memberId = await addMember(owner, organization.id, member);
    // A second session of the member with the organization active: the hook clears it too.
    const otherSession = await signInOnNewClient(app, member.input);
    expect(
      (await otherSession.post("/api/auth/organization/set-active", { organizationId: organization.id })).status,
    ).toBe(200);

    const removed = await withinDeadline(
      owner.client.post("/api/auth/organization/remove-member", {
        organizationId: organization.id,
        memberIdOrEmail: memberId,
      }),
      "remove-member",
    );
    expect(removed.status).toBe(200);
    expect(
      await app.db.selectFrom("member").select("id").where("id", "=", memberId).executeTakeFirst(),
    ).toBeUndefined();
    expect(await activeOrganizationOf(otherSession)).toBeNull();
    expect(await activeOrganizationOf(member.client)).toBeNull();
  });

  it("outside a transaction the helper answers the app's own database", async () => {
    expect(await currentDatabase(app.db)).toBe(app.db);
  });
});
