import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/** An invitation link of an organization deleted since says so, rather than "no such invitation". */

let server: TestApp;
let owner: TestUser;

beforeAll(async () => {
  server = await createTestApp();
  owner = await createVerifiedUser(server, { label: "deleting-owner" });
});

afterAll(async () => {
  await server?.close();
});

describe("invitation preview of a deleted organization", () => {
  it("answers state organization_deleted with the organization's name; an id never sent stays 404", async () => {
    const { id: organizationId } = await createOrganizationWithOwner(owner, "Gone soon");
    const invitation = await owner.client.post("/api/auth/organization/invite-member", {
      email: "invited-to-gone@example.test",
      role: "member",
      organizationId,
    });
    expect(invitation.status).toBe(200);
    const deleted = await owner.client.post("/api/auth/organization/delete", { organizationId });
    expect(deleted.status).toBe(200);

    const anonymous = createClient(server);
    const preview = await anonymous.get(`/api/invitations/${invitation.data.id}`);
    expect(preview.status).toBe(200);
    expect(preview.data).toEqual({ state: "organization_deleted", organizationName: "Gone soon", inviterName: "" });
    expect((await anonymous.get("/api/invitations/never-sent")).status).toBe(404);
  });
});
