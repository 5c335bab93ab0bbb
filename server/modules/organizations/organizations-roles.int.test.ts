import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { organizationRow, memberRow } from "../../test/organization-rows";
import { expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The organization rules of the product spec (sections 3–8) through the HTTP API: exact statuses and the
 * spec's lower-case messages (better-auth's are rewritten by server/auth/spec-errors.ts). Roles and permissions.
 */

let server: TestApp;

beforeAll(async () => {
  server = await createTestApp();
});

afterAll(async () => {
  await server?.close();
});

describe("roles and permissions (spec section 6)", () => {
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let multiRole: TestUser;
  let organizationId: string;

  beforeAll(async () => {
    [owner, admin, member, multiRole] = await Promise.all([
      createVerifiedUser(server, { label: "perm-owner" }),
      createVerifiedUser(server, { label: "perm-admin" }),
      createVerifiedUser(server, { label: "perm-member" }),
      createVerifiedUser(server, { label: "perm-multi" }),
    ]);
    organizationId = (await createOrganizationWithOwner(owner, "Permissions")).id;
    await addMember(owner, organizationId, admin, "admin");
    await addMember(owner, organizationId, member, "member");
    await addMember(owner, organizationId, multiRole, ["member", "admin"]);
  });

  const matrix: Array<[resource: string, action: string, owner: boolean, admin: boolean, member: boolean]> = [
    ["organization", "update", true, true, false],
    ["organization", "delete", true, false, false],
    ["member", "create", true, true, false],
    ["member", "update", true, true, false],
    ["member", "delete", true, true, false],
    ["invitation", "create", true, true, false],
    ["invitation", "cancel", true, true, false],
    ["team", "create", true, true, false],
    ["team", "update", true, true, false],
    ["team", "delete", true, true, false],
    ["billing", "manage", true, true, false],
  ];

  it.each(matrix)(
    "%s:%s is granted to owner=%s, admin=%s, member=%s",
    async (resource, action, ownerMay, adminMay, memberMay) => {
      const check = (user: TestUser) =>
        user.client.post("/api/auth/organization/has-permission", {
          permissions: { [resource]: [action] },
          organizationId,
        });
      const [asOwner, asAdmin, asMember] = await Promise.all([check(owner), check(admin), check(member)]);
      expect([asOwner.status, asAdmin.status, asMember.status]).toEqual([200, 200, 200]);
      expect([asOwner.data.success, asAdmin.data.success, asMember.data.success]).toEqual([
        ownerMay,
        adminMay,
        memberMay,
      ]);
    },
  );

  it("passes when any of a member's comma-separated roles grants every requested action", async () => {
    expect((await memberRow(server, organizationId, multiRole.id))?.role).toBe("member,admin");
    const teamAndBilling = await multiRole.client.post("/api/auth/organization/has-permission", {
      permissions: { team: ["create", "update", "delete"], billing: ["manage"] },
      organizationId,
    });
    expect(teamAndBilling.data).toMatchObject({ success: true });
    const withDelete = await multiRole.client.post("/api/auth/organization/has-permission", {
      permissions: { organization: ["update", "delete"] },
      organizationId,
    });
    expect(withDelete.data).toMatchObject({ success: false });
  });

  it("fails a check that requests no permission", async () => {
    const empty = await owner.client.post("/api/auth/organization/has-permission", { permissions: {}, organizationId });
    expect(empty.data?.success === true).toBe(false);
    const emptyAction = await owner.client.post("/api/auth/organization/has-permission", {
      permissions: { team: [] },
      organizationId,
    });
    expect(emptyAction.data?.success === true).toBe(false);
  });

  it("lets an admin update but not delete the organization, and a member neither", async () => {
    const adminUpdate = await admin.client.post("/api/auth/organization/update", {
      organizationId,
      data: { name: "Renamed by admin" },
    });
    expect(adminUpdate.status).toBe(200);
    expect((await organizationRow(server, organizationId))?.name).toBe("Renamed by admin");

    await expectError(
      await admin.client.post("/api/auth/organization/delete", { organizationId }),
      403,
      "not allowed to update or delete the organization",
    );
    await expectError(
      await member.client.post("/api/auth/organization/update", {
        organizationId,
        data: { name: "Renamed by member" },
      }),
      403,
      "not allowed to update or delete the organization",
    );
    await expectError(
      await member.client.post("/api/auth/organization/delete", { organizationId }),
      403,
      "not allowed to update or delete the organization",
    );
    expect(await organizationRow(server, organizationId)).toMatchObject({ name: "Renamed by admin" });
  });

  it("refuses a plain member every member, invitation and team action", async () => {
    const other = await createVerifiedUser(server, { label: "perm-target" });
    await expectError(
      await member.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: admin.email,
        organizationId,
      }),
      401,
      "not allowed to delete this member",
    );
    const invite = await member.client.post("/api/auth/organization/invite-member", {
      email: other.email,
      role: "member",
      organizationId,
    });
    expect(invite.status).toBe(403);
    const createTeam = await member.client.post("/api/auth/organization/create-team", {
      name: "Members only",
      organizationId,
    });
    expect(createTeam.status).toBe(403);
    const memberRowOfAdmin = await memberRow(server, organizationId, admin.id);
    const promote = await member.client.post("/api/auth/organization/update-member-role", {
      memberId: memberRowOfAdmin!.id,
      role: "owner",
      organizationId,
    });
    expect(promote.status).toBe(403);
    expect((await memberRow(server, organizationId, admin.id))?.role).toBe("admin");
    expect(await server.db.selectFrom("invitation").select("id").where("email", "=", other.email).execute()).toEqual(
      [],
    );
  });
});
