import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_PLAN_LIMITS } from "../../../common/billing.schemas";
import { productIdOf, subscribe } from "../../test/billing";
import { countRows, findEntries, ok, onlyEntry } from "../../test/audit-harness";
import { startAuditServer, stopAuditServer, withAgent, withRefusedInserts } from "../../test/audit-harness";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser, uniqueSlug } from "../../test/factories";
import { expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The audit log through the HTTP API: a change and its entry commit together, or neither does. One app on a
 * real port serves every test of the file.
 */

let server: TestApp;
/** A platform admin (role set in the database): reads the whole log for the assertions. */
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});

afterAll(stopAuditServer);

describe("a change and its entry commit together, or neither does", () => {
  it("refused changes record nothing: the last owner leaving, an admin banning themself, a plan limit, an unchanged plan", async () => {
    const owner = await createVerifiedUser(server, { label: "refused-owner" });
    const organization = await createOrganizationWithOwner(owner, "Refusals");
    await expectError(
      await owner.client.post("/api/auth/organization/leave", { organizationId: organization.id }, withAgent),
      400,
      "you cannot leave the organization as the only owner",
    );
    expect(await countRows({ action: "member.left", organizationId: organization.id })).toBe(0);

    await expectError(
      await platformAdmin.client.post(
        "/api/auth/admin/ban-user",
        { userId: platformAdmin.id, banReason: "Testing myself" },
        withAgent,
      ),
      400,
      "You cannot ban yourself",
    );
    await expectError(
      await platformAdmin.client.post(
        "/api/auth/admin/set-role",
        { userId: platformAdmin.id, role: "user" },
        withAgent,
      ),
      400,
      "You cannot change your own platform role",
    );
    expect(await findEntries({ targetId: platformAdmin.id })).toEqual([]);

    for (let index = 1; index < (FREE_PLAN_LIMITS.teams ?? 0); index += 1) {
      ok(
        await owner.client.post("/api/auth/organization/create-team", {
          name: `Team ${index}`,
          organizationId: organization.id,
        }),
      );
    }
    await expectError(
      await owner.client.post(
        "/api/auth/organization/create-team",
        { name: "One too many", organizationId: organization.id },
        withAgent,
      ),
      403,
      `The Free plan includes ${FREE_PLAN_LIMITS.teams} teams. Upgrade the plan to create more.`,
    );
    const teamEntries = await findEntries({ organizationId: organization.id, action: "team.created" });
    expect(teamEntries.map((found) => found.target?.label).sort()).toEqual(
      Array.from({ length: (FREE_PLAN_LIMITS.teams ?? 0) - 1 }, (_, index) => `Team ${index + 1}`),
    );

    const billed = await createOrganizationWithOwner(owner, "Refused plan");
    const monthly = await productIdOf(owner.client, "pro");
    await subscribe(server, owner, billed.id, { productId: monthly });
    await expectError(
      await owner.client.post(
        `/api/organizations/${billed.id}/billing/subscription`,
        { productId: monthly },
        withAgent,
      ),
      400,
      "The organization is already on this plan.",
    );
    expect((await findEntries({ organizationId: billed.id })).map((found) => found.action).sort()).toEqual([
      "billing.checkout_started",
      "organization.created",
    ]);
  });

  it("a change the database fails halfway records nothing: an organization whose owner membership cannot be written", async () => {
    const victim = await createVerifiedUser(server, { label: "half-made" });
    const slug = uniqueSlug("half-made");
    const response = await withRefusedInserts("member", "userId", victim.id, () =>
      victim.client.post("/api/auth/organization/create", { name: "Half made", slug }, withAgent),
    );
    await expectError(response, 500, "Something went wrong on our side. Please try again.");
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
    expect(await countRows({ actorId: victim.id })).toBe(0);
  });

  it("an entry that cannot be written undoes the change: the team is not created and the client is told", async () => {
    const owner = await createVerifiedUser(server, { label: "unrecorded" });
    const organization = await createOrganizationWithOwner(owner, "Unrecorded");
    const teamsBefore = await server.db
      .selectFrom("team")
      .select("name")
      .where("organizationId", "=", organization.id)
      .execute();

    const response = await withRefusedInserts("audit_event", "action", "team.created", () =>
      owner.client.post(
        "/api/auth/organization/create-team",
        { name: "Unrecorded team", organizationId: organization.id },
        withAgent,
      ),
    );
    await expectError(response, 500, "Something went wrong on our side. Please try again.");
    expect(
      await server.db.selectFrom("team").select("name").where("organizationId", "=", organization.id).execute(),
    ).toEqual(teamsBefore);
    expect(await countRows({ action: "team.created", organizationId: organization.id })).toBe(0);

    // Once entries can be written again, the same request succeeds and is recorded.
    const retried = ok(
      await owner.client.post(
        "/api/auth/organization/create-team",
        { name: "Unrecorded team", organizationId: organization.id },
        withAgent,
      ),
    );
    expect((await onlyEntry({ targetId: retried.data.id, action: "team.created" })).target?.label).toBe(
      "Unrecorded team",
    );
  });
});
