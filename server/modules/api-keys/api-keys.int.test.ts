import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiKeySummary, CreatedApiKey } from "../../../common/api-key.schemas";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient, expectError, type TestClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

const INVALID = "The API key is invalid, expired or revoked";
const SCOPE_MISSING = "This API key does not have the scope this call needs";
const NOT_ACCEPTED = "This call is only for signed-in people, not for API keys";
const OTHER_ORGANIZATION = "This API key belongs to another organization";
const ADMIN_REQUIRED = "Only the organization's owners and admins can manage its API keys";
/** The deployment's per-key limit in this file (API_KEY_REQUESTS_PER_MINUTE). */
const REQUESTS_PER_MINUTE = 12;
/** The limiter's clock, stopped 15 s into a minute: its windows are the clock's minutes, and no test crosses one. */
const LIMITER_NOW = Date.UTC(2026, 11, 2, 12, 0, 15);

describe("an organization's API keys", () => {
  let app: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let organization: { id: string };
  let other: { id: string };
  /** A client with no cookies, as a script calling the API is. */
  let script: TestClient;

  beforeAll(async () => {
    app = await createTestApp({
      env: { API_KEY_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE) },
      apiKeyRateLimit: { now: () => LIMITER_NOW },
    });
    owner = await createVerifiedUser(app, { label: "owner" });
    admin = await createVerifiedUser(app, { label: "admin" });
    member = await createVerifiedUser(app, { label: "member" });
    outsider = await createVerifiedUser(app, { label: "outsider" });
    organization = await createOrganizationWithOwner(owner, "Acme");
    other = await createOrganizationWithOwner(outsider, "Other");
    await addMember(owner, organization.id, admin, "admin");
    await addMember(owner, organization.id, member, "member");
    script = createClient(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const keysPath = (organizationId: string) => `/api/organizations/${organizationId}/api-keys`;
  const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  async function createKey(
    by: TestUser,
    body: { name: string; scopes: string[]; expiresInDays?: number },
    organizationId = organization.id,
  ): Promise<CreatedApiKey> {
    const response = await by.client.post(keysPath(organizationId), body);
    expect(response.status).toBe(201);
    return response.data as CreatedApiKey;
  }
  const auditEntries = (action: string) =>
    app.db
      .selectFrom("audit_event")
      .select(["actor_id", "actor_label", "target_id", "target_label", "organization_id"])
      .where("action", "=", action)
      .where("organization_id", "=", organization.id)
      .execute();

  it("lets an owner create a key, shown once, stored as a hash, audited", async () => {
    const response = await owner.client.post(keysPath(organization.id), {
      name: "  CI deploys ",
      scopes: ["members:read", "members:read", "audit:read"],
      expiresInDays: 30,
    });
    expect(response.status).toBe(201);
    const created = response.data as CreatedApiKey;
    expect(Object.keys(created).sort()).toEqual(
      ["createdAt", "expiresAt", "id", "key", "name", "prefix", "scopes"].sort(),
    );
    expect(created).toMatchObject({ name: "CI deploys", scopes: ["members:read", "audit:read"] });
    expect(created.key).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const days = (Date.parse(created.expiresAt!) - Date.parse(created.createdAt)) / 86_400_000;
    expect(days).toBe(30);
    const row = await app.db.selectFrom("api_key").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow();
    expect(row.key_hash).not.toContain(created.key);
    expect(JSON.stringify(row)).not.toContain(created.key.slice(created.prefix.length));
    expect(await auditEntries("organization.api_key_created")).toContainEqual({
      actor_id: owner.id,
      actor_label: owner.email,
      target_id: created.id,
      target_label: "CI deploys",
      organization_id: organization.id,
    });
  });

  it("lets an admin create keys; refuses members, outsiders and anonymous callers; checks the body", async () => {
    await createKey(admin, { name: "admin key", scopes: ["teams:read"] });
    const body = { name: "nope", scopes: ["members:read"] };
    await expectError(await member.client.post(keysPath(organization.id), body), 403, ADMIN_REQUIRED);
    await expectError(await member.client.get(keysPath(organization.id)), 403, ADMIN_REQUIRED);
    await expectError(
      await outsider.client.post(keysPath(organization.id), body),
      403,
      "user is not a member of the organization",
    );
    await expectError(await script.post(keysPath(organization.id), body), 401, "Unauthorized");
    const noScopes = await owner.client.post(keysPath(organization.id), { name: "x", scopes: [] });
    expect(noScopes.status).toBe(400);
    expect(noScopes.data.message).toContain("Choose at least one scope");
    const unknown = await owner.client.post(keysPath(organization.id), { name: "x", scopes: ["members:delete"] });
    expect(unknown.status).toBe(400);
    const longLife = await owner.client.post(keysPath(organization.id), {
      name: "x",
      scopes: ["members:read"],
      expiresInDays: 0,
    });
    expect(longLife.status).toBe(400);
    expect(await auditEntries("organization.api_key_created")).toHaveLength(2);
  });

  it("lists keys without their secrets, with their last use", async () => {
    const created = await createKey(owner, { name: "listed", scopes: ["members:read"] });
    const before = (await owner.client.get(keysPath(organization.id))).data as ApiKeySummary[];
    const listed = before.find((key) => key.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      name: "listed",
      scopes: ["members:read"],
      prefix: created.prefix,
      createdAt: created.createdAt,
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(JSON.stringify(before)).not.toContain(created.key);
    expect((await script.get(`/api/organizations/${organization.id}/members`, bearer(created.key))).status).toBe(200);
    const after = (await admin.client.get(keysPath(organization.id))).data as ApiKeySummary[];
    expect(after.find((key) => key.id === created.id)?.lastUsedAt).toEqual(expect.any(String));
  });

  it("acts for its organization within its scopes, and nowhere else", async () => {
    const { key } = await createKey(owner, { name: "reader", scopes: ["members:read", "audit:read"] });
    const members = await script.get(`/api/organizations/${organization.id}/members`, bearer(key));
    expect(members.status).toBe(200);
    expect(members.data.total).toBe(3);
    const audit = await script.get(`/api/organizations/${organization.id}/audit-log`, bearer(key));
    expect(audit.status).toBe(200);
    expect(audit.data.entries.map((entry: { action: string }) => entry.action)).toContain(
      "organization.api_key_created",
    );
    const teams = await script.get(`/api/organizations/${organization.id}/teams`, bearer(key));
    expect((await expectError(teams, 403, SCOPE_MISSING)).code).toBe("API_KEY_SCOPE_MISSING");
    expect(teams.data.details).toEqual({ scope: "teams:read" });
    // Routes for people only: managing keys, the security policy, SSO.
    await expectError(await script.get(keysPath(organization.id), bearer(key)), 403, NOT_ACCEPTED);
    await expectError(
      await script.post(keysPath(organization.id), { name: "child", scopes: ["members:read"] }, bearer(key)),
      403,
      NOT_ACCEPTED,
    );
    await expectError(
      await script.request(`/api/organizations/${organization.id}/security`, {
        method: "PATCH",
        json: { requireTwoFactor: false },
        ...bearer(key),
      }),
      403,
      NOT_ACCEPTED,
    );
    await expectError(await script.get(`/api/organizations/${organization.id}/sso`, bearer(key)), 403, NOT_ACCEPTED);
    // Another organization's routes.
    await expectError(await script.get(`/api/organizations/${other.id}/members`, bearer(key)), 403, OTHER_ORGANIZATION);
    // A key is never a session: better-auth's endpoints do not see it, even from a signed-in browser.
    expect((await script.get("/api/auth/get-session", bearer(key))).data).toBeNull();
    const deleted = await script.post(
      "/api/auth/organization/delete",
      { organizationId: organization.id },
      bearer(key),
    );
    expect(deleted.status).toBe(401);
    // With a member's cookies too, the key decides: still refused where it may not go.
    await expectError(
      await member.client.get(`/api/organizations/${organization.id}/teams`, bearer(key)),
      403,
      SCOPE_MISSING,
    );
  });

  it("reads billing and reports usage with the billing scopes, from a script without cookies or Origin", async () => {
    const { key } = await createKey(owner, { name: "metering", scopes: ["billing:read", "usage:write"] });
    const billing = `/api/organizations/${organization.id}/billing`;
    expect((await script.get(billing, bearer(key))).status).toBe(200);
    const meter = "api_calls";
    const reported = await script.post(
      `${billing}/usage`,
      { meter, quantity: 3, key: "batch-1" },
      {
        ...bearer(key),
        origin: null,
      },
    );
    expect(reported.status).toBe(202);
    expect(reported.data).toMatchObject({ duplicate: false });
    const { key: reader } = await createKey(owner, { name: "billing reader", scopes: ["billing:read"] });
    const refused = await script.post(`${billing}/usage`, { meter, quantity: 3 }, { ...bearer(reader), origin: null });
    await expectError(refused, 403, SCOPE_MISSING);
    await expectError(await script.post(`${billing}/portal`, {}, { ...bearer(key), origin: null }), 403, NOT_ACCEPTED);
  });

  it("answers 401 for a wrong, malformed, expired or revoked key", async () => {
    const members = `/api/organizations/${organization.id}/members`;
    const { key, prefix } = await createKey(owner, { name: "short-lived", scopes: ["members:read"], expiresInDays: 1 });
    await expectError(await script.get(members, bearer(`${prefix}${"x".repeat(43)}`)), 401, INVALID);
    await expectError(await script.get(members, { headers: { authorization: "Bearer" } }), 401, INVALID);
    await expectError(await script.get(members, { headers: { authorization: "Bearer  " } }), 401, INVALID);
    // Another scheme is no key: a proxy's Basic authentication leaves the session guards to decide.
    await expectError(await script.get(members, { headers: { authorization: "Basic abc" } }), 401, "Unauthorized");
    const behindProxy = await member.client.get(members, { headers: { authorization: "Basic abc" } });
    expect(behindProxy.status).toBe(200);
    await app.db
      .updateTable("api_key")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("prefix", "=", prefix)
      .execute();
    await expectError(await script.get(members, bearer(key)), 401, INVALID);

    const revoked = await createKey(owner, { name: "to revoke", scopes: ["members:read"] });
    expect((await script.get(members, bearer(revoked.key))).status).toBe(200);
    expect((await script.get(members, bearer(revoked.key))).status).toBe(200);
    const response = await admin.client.request(`${keysPath(organization.id)}/${revoked.id}`, { method: "DELETE" });
    expect(response.status).toBe(204);
    await expectError(await script.get(members, bearer(revoked.key)), 401, INVALID);
    const listed = (await owner.client.get(keysPath(organization.id))).data as ApiKeySummary[];
    expect(listed.map((found) => found.id)).not.toContain(revoked.id);
    expect(await auditEntries("organization.api_key_revoked")).toEqual([
      {
        actor_id: admin.id,
        actor_label: admin.email,
        target_id: revoked.id,
        target_label: "to revoke",
        organization_id: organization.id,
      },
    ]);
    const again = await admin.client.request(`${keysPath(organization.id)}/${revoked.id}`, { method: "DELETE" });
    await expectError(again, 404, "API key not found");
  });

  it("revokes only the organization's own keys, by owners and admins", async () => {
    const foreign = await createKey(outsider, { name: "foreign", scopes: ["members:read"] }, other.id);
    const own = await createKey(owner, { name: "kept", scopes: ["members:read"] });
    await expectError(
      await owner.client.request(`${keysPath(organization.id)}/${foreign.id}`, { method: "DELETE" }),
      404,
      "API key not found",
    );
    await expectError(
      await member.client.request(`${keysPath(organization.id)}/${own.id}`, { method: "DELETE" }),
      403,
      ADMIN_REQUIRED,
    );
    await expectError(
      await script.request(`${keysPath(organization.id)}/${own.id}`, { method: "DELETE", ...bearer(own.key) }),
      403,
      NOT_ACCEPTED,
    );
    expect((await script.get(`/api/organizations/${other.id}/members`, bearer(foreign.key))).status).toBe(200);
    expect((await script.get(`/api/organizations/${organization.id}/members`, bearer(own.key))).status).toBe(200);
  });

  it("limits each key's requests a minute, key by key", async () => {
    const busy = await createKey(owner, { name: "busy", scopes: ["members:read"] });
    const calm = await createKey(owner, { name: "calm", scopes: ["members:read"] });
    const members = `/api/organizations/${organization.id}/members`;
    for (let count = 0; count < REQUESTS_PER_MINUTE; count += 1)
      expect((await createClient(app).get(members, bearer(busy.key))).status).toBe(200);
    const refused = await createClient(app).get(members, bearer(busy.key));
    await expectError(refused, 429, "Too many requests. Please try again later.");
    expect(refused.headers.get("retry-after")).toBe("45");
    expect((await script.get(members, bearer(calm.key))).status).toBe(200);
  });
});
