import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser, uniqueSlug, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * `GET /api/organizations/slug-availability`: a taken slug is an answer (200 `{available:false}`), not an error a
 * browser logs at every keystroke of the create-organization form.
 */

let server: TestApp;
let user: TestUser;

beforeAll(async () => {
  server = await createTestApp();
  user = await createVerifiedUser(server, { label: "slug-checker" });
});

afterAll(async () => {
  await server?.close();
});

const check = (client: TestUser["client"], slug: string) =>
  client.get(`/api/organizations/slug-availability?slug=${encodeURIComponent(slug)}`);

describe("slug availability", () => {
  it("answers 200 with available true for a free slug and false for a taken one", async () => {
    const free = await check(user.client, uniqueSlug("free"));
    expect([free.status, free.data]).toEqual([200, { available: true }]);
    const existing = await createOrganizationWithOwner(user, "Slug owner");
    const taken = await check(user.client, existing.slug);
    expect([taken.status, taken.data]).toEqual([200, { available: false }]);
  });

  it("refuses a malformed slug with 400 and a signed-out caller with 401", async () => {
    await expectError(
      await check(user.client, "Not A Slug"),
      400,
      "slug: Use lower-case letters, digits and single dashes",
    );
    expect((await check(createClient(server), uniqueSlug("anonymous"))).status).toBe(401);
  });
});
