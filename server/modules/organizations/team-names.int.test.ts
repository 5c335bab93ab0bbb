import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/** Team names are unique within an organization (trimmed, without case), on create and on rename. */

let server: TestApp;
let owner: TestUser;
let member: TestUser;
let organizationId: string;

beforeAll(async () => {
  server = await createTestApp();
  [owner, member] = await Promise.all([
    createVerifiedUser(server, { label: "names-owner" }),
    createVerifiedUser(server, { label: "names-member" }),
  ]);
  organizationId = (await createOrganizationWithOwner(owner, "Named teams")).id;
  await addMember(owner, organizationId, member, "member");
});

afterAll(async () => {
  await server?.close();
});

const teamNames = async (id: string) =>
  (await server.db.selectFrom("team").select("name").where("organizationId", "=", id).orderBy("name").execute()).map(
    (team) => team.name,
  );

describe("team names", () => {
  it("refuses a second team of the same name in one organization, but not in another", async () => {
    const first = await owner.client.post("/api/auth/organization/create-team", { name: "Design", organizationId });
    expect(first.status).toBe(200);
    const again = await expectError(
      await owner.client.post("/api/auth/organization/create-team", { name: " design ", organizationId }),
      400,
      "a team with this name already exists in this organization",
    );
    expect(again.code).toBe("TEAM_NAME_ALREADY_TAKEN");
    expect(await teamNames(organizationId)).toEqual(["Design", "Named teams"]);

    const other = await createOrganizationWithOwner(owner, "Other place");
    const elsewhere = await owner.client.post("/api/auth/organization/create-team", {
      name: "Design",
      organizationId: other.id,
    });
    expect(elsewhere.status).toBe(200);
  });

  it("refuses renaming a team to another team's name, and accepts a change of its own case", async () => {
    const created = await owner.client.post("/api/auth/organization/create-team", { name: "Support", organizationId });
    const teamId = created.data.id as string;
    await expectError(
      await owner.client.post("/api/auth/organization/update-team", {
        teamId,
        data: { name: "DESIGN", organizationId },
      }),
      400,
      "a team with this name already exists in this organization",
    );
    const recased = await owner.client.post("/api/auth/organization/update-team", {
      teamId,
      data: { name: "SUPPORT", organizationId },
    });
    expect(recased.status).toBe(200);
    expect(await teamNames(organizationId)).toEqual(["Design", "Named teams", "SUPPORT"]);
  });

  it("answers a member who may not rename teams with the refusal of permission, not the name's", async () => {
    const teamId = (
      await server.db.selectFrom("team").select("id").where("name", "=", "SUPPORT").executeTakeFirstOrThrow()
    ).id;
    const refused = await member.client.post("/api/auth/organization/update-team", {
      teamId,
      data: { name: "Design", organizationId },
    });
    expect(refused.status).toBe(403);
  });
});
