import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser, uniqueSlug, type TestUser } from "../../test/factories";
import { organizationRow } from "../../test/organization-rows";
import { expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The organization rules of the product spec (sections 3–8) through the HTTP API: exact statuses and the
 * spec's lower-case messages (better-auth's are rewritten by server/auth/spec-errors.ts). Organization metadata.
 */

let server: TestApp;

beforeAll(async () => {
  server = await createTestApp();
});

afterAll(async () => {
  await server?.close();
});

describe("organization metadata (a map or a JSON string, at most 16 KB and 10 levels)", () => {
  let owner: TestUser;

  beforeAll(async () => {
    owner = await createVerifiedUser(server, { label: "meta-owner" });
  });

  function nested(levels: number): Record<string, unknown> {
    let value: Record<string, unknown> = { leaf: true };
    for (let level = 1; level < levels; level += 1) value = { child: value };
    return value;
  }

  async function storedMetadata(slug: string) {
    const row = await server.db
      .selectFrom("organization")
      .select("metadata")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    return JSON.parse(row.metadata as string) as unknown;
  }

  it("accepts a map and a JSON string, storing the same map", async () => {
    const slugMap = uniqueSlug("meta-map");
    const asMap = await owner.client.post("/api/auth/organization/create", {
      name: "Map",
      slug: slugMap,
      metadata: { plan: "pro", depth: nested(9) },
    });
    expect(asMap.status).toBe(200);
    expect(await storedMetadata(slugMap)).toEqual({ plan: "pro", depth: nested(9) });

    const slugString = uniqueSlug("meta-string");
    const asString = await owner.client.post("/api/auth/organization/create", {
      name: "String",
      slug: slugString,
      metadata: JSON.stringify({ plan: "team" }),
    });
    expect(asString.status).toBe(200);
    expect(await storedMetadata(slugString)).toEqual({ plan: "team" });

    const updated = await owner.client.post("/api/auth/organization/update", {
      organizationId: asString.data.id,
      data: { metadata: JSON.stringify({ plan: "enterprise" }) },
    });
    expect(updated.status).toBe(200);
    expect(await storedMetadata(slugString)).toEqual({ plan: "enterprise" });
  });

  it.each([
    ["a map over 16 KB", { blob: "x".repeat(16 * 1024) }, "metadata may be at most 16 KB"],
    ["a JSON string over 16 KB", JSON.stringify({ blob: "x".repeat(16 * 1024) }), "metadata may be at most 16 KB"],
    ["a map deeper than 10 levels", nested(11), "metadata may be nested at most 10 levels deep"],
    [
      "a JSON string deeper than 10 levels",
      JSON.stringify(nested(11)),
      "metadata may be nested at most 10 levels deep",
    ],
    [
      "a JSON string with a __proto__ key",
      '{"__proto__":{"polluted":true}}',
      'metadata may not contain the key "__proto__"',
    ],
    [
      "a nested __proto__ key",
      '{"safe":{"__proto__":{"polluted":true}}}',
      'metadata may not contain the key "__proto__"',
    ],
    ["a string that is not JSON", "{not json", "metadata is not valid JSON"],
  ])("refuses %s with 400 and a clear message, on create and on update", async (_label, metadata, message) => {
    const slug = uniqueSlug("meta-bad");
    await expectError(
      await owner.client.post("/api/auth/organization/create", { name: "Bad metadata", slug, metadata }),
      400,
      message,
    );
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);

    const organization = await createOrganizationWithOwner(owner, "Good metadata");
    await expectError(
      await owner.client.post("/api/auth/organization/update", { organizationId: organization.id, data: { metadata } }),
      400,
      message,
    );
    expect((await organizationRow(server, organization.id))?.metadata ?? null).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a raw __proto__ key in the request body with 400, never 5xx", async () => {
    const slug = uniqueSlug("meta-proto");
    // Sent as raw text: a JavaScript object literal would turn the __proto__ key into a prototype, not a key.
    const response = await owner.client.request("/api/auth/organization/create", {
      method: "POST",
      json: `{"name":"Proto","slug":"${slug}","metadata":{"__proto__":{"polluted":true}}}`,
    });
    await expectError(response, 400, 'metadata may not contain the key "__proto__"');
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
