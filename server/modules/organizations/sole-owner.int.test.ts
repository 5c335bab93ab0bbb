import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_ERROR_CODES } from "../../../common/error-codes";
import type { AccountDeletionPreview, OrganizationSummary } from "../../../common/organization.schemas";
import { productIdOf, sandboxCall, settleBilling, subscribe } from "../../test/billing";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import { createTestApp, isPostgresRun, type TestApp } from "../../test/test-database";

/**
 * Ownership is never lost with an account: deleting the only owner of an organization with other members is
 * refused (SOLE_OWNER, with the organizations), organizations where the account is the only member go with it
 * (their subscriptions ended at the provider, the deletion audited), and a concurrent change that takes the
 * other owner away never leaves an organization without one. Runs on SQLite and, with TEST_DATABASE_URL, on
 * PostgreSQL, where the races are real (several connections).
 */

let server: TestApp;
let admin: TestUser;

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  admin = await createVerifiedUser(server, { label: "admin" });
  await server.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
});
afterAll(async () => server.close());

const summaryOf = ({ id, name, slug }: OrganizationSummary): OrganizationSummary => ({ id, name, slug });

async function deleteAccount(user: TestUser) {
  return user.client.post("/api/auth/delete-user", { password: user.input.password });
}

async function organizationExists(id: string): Promise<boolean> {
  const row = await server.db.selectFrom("organization").select("id").where("id", "=", id).executeTakeFirst();
  return row !== undefined;
}

async function userExists(id: string): Promise<boolean> {
  return (await server.db.selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()) !== undefined;
}

async function ownersOf(organizationId: string): Promise<string[]> {
  const members = server.db.selectFrom("member").select(["userId", "role"]);
  const rows = await members.where("organizationId", "=", organizationId).execute();
  return rows.filter((row) => row.role.split(",").includes("owner")).map((row) => row.userId);
}

/** An owner with a one-person organization and an organization they alone own with one other member. */
async function soleOwnerWithOrganizations(label: string) {
  const owner = await createVerifiedUser(server, { label });
  const member = await createVerifiedUser(server, { label: `${label}-member` });
  const shared = await createOrganizationWithOwner(owner, `${label} Shared`);
  const memberId = await addMember(owner, shared.id, member);
  const solo = await createOrganizationWithOwner(owner, `${label} Solo`);
  return { owner, member, memberId, shared, solo };
}

describe("deleting the only owner of an organization with other members", () => {
  it("is refused with SOLE_OWNER and the organizations; nothing is deleted and the session still works", async () => {
    const { owner, shared, solo } = await soleOwnerWithOrganizations("refused");
    const preview = await owner.client.get("/api/account/deletion-preview");
    expect(preview.status).toBe(200);
    expect(preview.data).toEqual({
      deletedWithAccount: [summaryOf(solo)],
      soleOwnerOf: [summaryOf(shared)],
    } satisfies AccountDeletionPreview);

    const refused = await deleteAccount(owner);
    const body = await expectError(refused, 400, ACCOUNT_ERROR_CODES.SOLE_OWNER.message);
    expect(body).toMatchObject({ code: "SOLE_OWNER", details: [summaryOf(shared)] });

    expect(await userExists(owner.id)).toBe(true);
    expect(await organizationExists(solo.id)).toBe(true);
    expect(await organizationExists(shared.id)).toBe(true);
    const session = await owner.client.get("/api/auth/get-session");
    expect((session.data as { user: { id: string } } | null)?.user.id).toBe(owner.id);
  });

  it("is refused to a platform admin's remove-user as well", async () => {
    const { owner, shared, solo } = await soleOwnerWithOrganizations("admin-refused");
    const refused = await admin.client.post("/api/auth/admin/remove-user", { userId: owner.id });
    const body = await expectError(refused, 400, ACCOUNT_ERROR_CODES.SOLE_OWNER.message);
    expect(body).toMatchObject({ code: "SOLE_OWNER", details: [summaryOf(shared)] });
    expect(await userExists(owner.id)).toBe(true);
    expect(await organizationExists(solo.id)).toBe(true);
  });

  it("goes through once ownership is transferred: the other member owns the organization", async () => {
    const { owner, member, memberId, shared, solo } = await soleOwnerWithOrganizations("transferred");
    const promoted = await owner.client.post("/api/auth/organization/update-member-role", {
      memberId,
      role: "owner",
      organizationId: shared.id,
    });
    expect(promoted.status).toBe(200);
    expect((await owner.client.get("/api/account/deletion-preview")).data).toEqual({
      deletedWithAccount: [summaryOf(solo)],
      soleOwnerOf: [],
    } satisfies AccountDeletionPreview);

    expect((await deleteAccount(owner)).status).toBe(200);
    expect(await userExists(owner.id)).toBe(false);
    expect(await organizationExists(shared.id)).toBe(true);
    expect(await ownersOf(shared.id)).toEqual([member.id]);
    expect(await organizationExists(solo.id)).toBe(false);
  });

  it("goes through once the organization is deleted instead", async () => {
    const { owner, shared } = await soleOwnerWithOrganizations("org-deleted");
    expect((await owner.client.post("/api/auth/organization/delete", { organizationId: shared.id })).status).toBe(200);
    expect((await deleteAccount(owner)).status).toBe(200);
    expect(await userExists(owner.id)).toBe(false);
  });

  it("is not refused to a member or to one of several owners", async () => {
    const owner = await createVerifiedUser(server, { label: "one-of-two" });
    const other = await createVerifiedUser(server, { label: "other-owner" });
    const plain = await createVerifiedUser(server, { label: "plain-member" });
    const organization = await createOrganizationWithOwner(owner, "Two owners");
    await addMember(owner, organization.id, other, "owner");
    await addMember(owner, organization.id, plain, "member");
    expect((await plain.client.get("/api/account/deletion-preview")).data).toEqual({
      deletedWithAccount: [],
      soleOwnerOf: [],
    });
    expect((await deleteAccount(plain)).status).toBe(200);
    expect((await deleteAccount(owner)).status).toBe(200);
    expect(await ownersOf(organization.id)).toEqual([other.id]);
  });

  it("the preview needs a session", async () => {
    const anonymous = await createVerifiedUser(server, { label: "signed-out" });
    await anonymous.client.post("/api/auth/sign-out");
    await expectError(await anonymous.client.get("/api/account/deletion-preview"), 401, "Unauthorized");
  });
});

describe("organizations where the account is the only member", () => {
  it("are deleted with it, their subscription canceled at the provider and the deletion audited", async () => {
    const owner = await createVerifiedUser(server, { label: "solo-payer" });
    const solo = await createOrganizationWithOwner(owner, "Solo Paying");
    await subscribe(server, owner, solo.id, { productId: await productIdOf(owner.client, "pro") });
    const overview = (await owner.client.get(`/api/organizations/${solo.id}/billing`)).data as {
      subscription: { id: string };
    };
    const subscriptionPath = `/v1/subscriptions/${overview.subscription.id}`;
    expect((await sandboxCall(server, "GET", subscriptionPath)).body.status).toBe("active");

    expect((await deleteAccount(owner)).status).toBe(200);
    expect(await organizationExists(solo.id)).toBe(false);
    expect((await sandboxCall(server, "GET", subscriptionPath)).body.status).toBe("canceled");
    await settleBilling(server);

    const log = await admin.client.get(`/api/admin/audit-log?action=organization.deleted&organizationId=${solo.id}`);
    expect((log.data as { entries: unknown[] }).entries).toEqual([
      expect.objectContaining({
        action: "organization.deleted",
        actor: { id: owner.id, label: owner.email, type: "user" },
        target: { type: "organization", id: solo.id, label: "Solo Paying" },
        reason: "Deleted with the account of its only member",
      }),
    ]);
  });

  it("are deleted with an account a platform admin removes, the admin recorded as the actor", async () => {
    const owner = await createVerifiedUser(server, { label: "removed-solo" });
    const solo = await createOrganizationWithOwner(owner, "Removed Solo");
    expect((await admin.client.post("/api/auth/admin/remove-user", { userId: owner.id })).status).toBe(200);
    expect(await organizationExists(solo.id)).toBe(false);
    const log = await admin.client.get(`/api/admin/audit-log?action=organization.deleted&organizationId=${solo.id}`);
    const { entries } = log.data as { entries: Array<{ actor: unknown }> };
    expect(entries.map((entry) => entry.actor)).toEqual([{ id: admin.id, label: admin.email, type: "user" }]);
  });

  it("stay, with the account, when a wrong password refuses the deletion", async () => {
    const owner = await createVerifiedUser(server, { label: "wrong-password" });
    const solo = await createOrganizationWithOwner(owner, "Kept Solo");
    const refused = await owner.client.post("/api/auth/delete-user", { password: "not-the-password" });
    await expectError(refused, 400, "Invalid password");
    expect(await organizationExists(solo.id)).toBe(true);
    expect(await userExists(owner.id)).toBe(true);
  });
});

describe("concurrent changes never leave an organization without an owner", () => {
  // Made once, one after the other (each sign-up hashes a password: the slow part here). The other owner and the
  // member of each race's organization are shared; an owner whose account may go is used once.
  const users: Record<"leaving" | "removing" | "both" | "other" | "otherOfBoth" | "member", TestUser> = {} as never;
  beforeAll(async () => {
    for (const label of ["leaving", "removing", "both", "other", "otherOfBoth", "member"] as const) {
      users[label] = await createVerifiedUser(server, { label: `race-${label}` });
    }
  });

  /** An organization of two owners and a member (so it never goes with an account); the second's member id. */
  async function twoOwners(first: TestUser, second: TestUser, name: string) {
    const organization = await createOrganizationWithOwner(first, name);
    const secondMemberId = await addMember(first, organization.id, second, "owner");
    await addMember(first, organization.id, users.member, "member");
    return { organization, secondMemberId };
  }

  it("an owner deleting their account while the other owner leaves", async () => {
    const { leaving: first, other: second } = users;
    const { organization } = await twoOwners(first, second, "Leave Race");
    const leave = () => second.client.post("/api/auth/organization/leave", { organizationId: organization.id });
    const [deleted, left] = await Promise.all([deleteAccount(first), leave()]);
    expect([deleted.status, left.status].sort()).toEqual([200, 400]);
    expect(await ownersOf(organization.id)).toEqual([deleted.status === 200 ? second.id : first.id]);
  });

  it("an owner deleting their account while removing the other owner", async () => {
    const { removing: first, other: second } = users;
    const { organization, secondMemberId } = await twoOwners(first, second, "Remove Race");
    const [deleted, removed] = await Promise.all([
      deleteAccount(first),
      first.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: secondMemberId,
        organizationId: organization.id,
      }),
    ]);
    // The removal first leaves the first the only owner (the deletion is refused); the deletion first leaves the
    // second the only owner (the removal then finds no session). Never both.
    expect([deleted.status, removed.status].filter((status) => status === 200)).toHaveLength(1);
    expect(await ownersOf(organization.id)).toEqual([removed.status === 200 ? first.id : second.id]);
  });

  it("both owners deleting their accounts at once: one is refused", async () => {
    const { both: first, otherOfBoth: second } = users;
    const { organization } = await twoOwners(first, second, "Both Race");
    const answers = await Promise.all([deleteAccount(first), deleteAccount(second)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const refused = answers.find((answer) => answer.status === 400);
    expect((refused?.data as { code?: string }).code).toBe("SOLE_OWNER");
    expect(await ownersOf(organization.id)).toHaveLength(1);
  });

  // PostgreSQL: the deletion is held by another connection's lock on its user row, after its ownership check and
  // before its commit, while the other owner leaves. Without the organization lock the leave commits in that gap
  // and the organization ends with no owner; with it, the leave waits, then finds itself the only owner.
  if (isPostgresRun()) {
    it("an owner's deletion held before its commit while the other owner leaves", async () => {
      const first = await createVerifiedUser(server, { label: "held-first" });
      const { other: second } = users;
      const { organization } = await twoOwners(first, second, "Held Race");
      const waiting = async () => {
        const row = await sql<{ count: string }>`select count(*) as count from pg_stat_activity
          where wait_event_type = 'Lock' and datname = current_database()`.execute(server.db);
        return Number(row.rows[0]?.count ?? 0);
      };
      await server.db.connection().execute(async (side) => {
        await sql`begin`.execute(side);
        await sql`select id from "user" where id = ${first.id} for update`.execute(side);
        const deleting = deleteAccount(first);
        // Generous: on a busy machine the deletion can take seconds to reach the lock; it is awaited, not slept.
        await expect.poll(waiting, { timeout: 20_000 }).toBe(1);
        let hasLeft = false;
        const leave = second.client.post("/api/auth/organization/leave", { organizationId: organization.id });
        const leaving = leave.finally(() => (hasLeft = true));
        await expect.poll(async () => hasLeft || (await waiting()) === 2, { timeout: 20_000 }).toBe(true);
        await sql`rollback`.execute(side);
        const [deleted, left] = await Promise.all([deleting, leaving]);
        expect([deleted.status, left.status]).toEqual([200, 400]);
      });
      expect(await ownersOf(organization.id)).toEqual([second.id]);
    });
  }
});
