import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  type CreatedOrganization,
  type TestUser,
} from "../../test/factories";
import { createClient, expectError, type TestClient, type TestResponse } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

const SCIM = "/api/auth/scim/v2";
const PATCH_OP = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const ENTERPRISE = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";
const ERROR_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

const ADMIN_REQUIRED = "Only the organization's owners and admins can manage its directory sync";
const UNAUTHORIZED = "The SCIM bearer token is missing, revoked or not valid";

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++sequence}`;

/** A directory's HTTP client: a bearer token, SCIM's media type, no cookies and no Origin. */
function directory(app: TestApp, token: string) {
  const client = createClient(app);
  const call = (method: string, path: string, json?: unknown) =>
    client.request(`${SCIM}${path}`, {
      method,
      ...(json === undefined ? {} : { json, contentType: "application/scim+json" }),
      headers: { authorization: `Bearer ${token}`, "user-agent": "Okta SCIM Client 1.0.0" },
      origin: null,
      withoutCookies: true,
    });
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, json: unknown) => call("POST", path, json),
    put: (path: string, json: unknown) => call("PUT", path, json),
    patch: (path: string, json: unknown) => call("PATCH", path, json),
    delete: (path: string) => call("DELETE", path),
  };
}
type Directory = ReturnType<typeof directory>;

function expectScimError(response: TestResponse, status: number, detail: string, scimType?: string) {
  expect(response.headers.get("content-type")).toBe("application/scim+json");
  expect(response.data).toEqual({
    schemas: [ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  });
  expect(response.status).toBe(status);
}

/** The user as Okta creates it (Okta's SCIM 2.0 guide). */
const oktaUser = (email: string, externalId = unique("00u")) => ({
  schemas: [USER_SCHEMA],
  userName: email,
  name: { givenName: "Ada", familyName: "Lovelace" },
  emails: [{ primary: true, value: email, type: "work" }],
  displayName: "Ada Lovelace",
  locale: "en-US",
  externalId,
  groups: [],
  password: "never-stored-1",
  active: true,
});

/** The user as Microsoft Entra ID creates it (its SCIM provisioning documentation). */
const entraUser = (email: string, externalId = unique("entra")) => ({
  schemas: [USER_SCHEMA, ENTERPRISE],
  externalId,
  userName: email,
  active: true,
  displayName: "Grace Hopper",
  emails: [{ primary: true, type: "work", value: email }],
  meta: { resourceType: "User" },
  name: { formatted: "Grace Hopper", familyName: "Hopper", givenName: "Grace" },
  roles: [],
  [ENTERPRISE]: { department: "Engineering" },
});

describe("SCIM provisioning", () => {
  let app: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let organization: CreatedOrganization;
  let otherOwner: TestUser;
  let otherOrganization: CreatedOrganization;
  let token: string;
  let okta: Directory;

  const generate = (client: TestClient, organizationId: string, providerId = "okta") =>
    client.post("/api/auth/scim/generate-token", { providerId, organizationId });

  const newToken = async (providerId = unique("okta"), organizationId = organization.id, by = owner) => {
    const response = await generate(by.client, organizationId, providerId);
    expect(response.status).toBe(200);
    return response.data.scimToken as string;
  };

  /** An organization of its own, with its owner and a directory: the free plan's 10 seats each. */
  const freshDirectory = async (label: string) => {
    const boss = await createVerifiedUser(app, { label });
    const org = await createOrganizationWithOwner(boss, label);
    return { boss, org, scim: directory(app, await newToken(label, org.id, boss)) };
  };

  const membershipOf = (organizationId: string, userId: string) =>
    app.db
      .selectFrom("member")
      .select("role")
      .where("organizationId", "=", organizationId)
      .where("userId", "=", userId)
      .executeTakeFirst();
  const auditOf = (action: string, targetId: string) =>
    app.db
      .selectFrom("audit_event")
      .select(["actor_id", "actor_label", "organization_id", "details"])
      .where("action", "=", action)
      .where("target_id", "=", targetId)
      .orderBy("created_at")
      .execute();

  beforeAll(async () => {
    app = await createTestApp();
    owner = await createVerifiedUser(app, { label: "owner" });
    admin = await createVerifiedUser(app, { label: "admin" });
    member = await createVerifiedUser(app, { label: "member" });
    outsider = await createVerifiedUser(app, { label: "outsider" });
    otherOwner = await createVerifiedUser(app, { label: "other" });
    organization = await createOrganizationWithOwner(owner, "Acme");
    otherOrganization = await createOrganizationWithOwner(otherOwner, "Globex");
    await addMember(owner, organization.id, admin, "admin");
    await addMember(owner, organization.id, member, "member");
    token = await newToken("okta");
    okta = directory(app, token);
  });
  afterAll(async () => {
    await app.close();
  });

  describe("tokens", () => {
    it("are generated by owners and admins only, shown once, bound to the organization and audited", async () => {
      const byAdmin = await generate(admin.client, organization.id, "entra-id");
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.data.scimToken).toMatch(/^atrium_scim_[\w-]{43}$/);
      expect(byAdmin.data.token).toMatchObject({ name: "entra-id", lastUsedAt: null, revokedAt: null });
      await expectError(await generate(member.client, organization.id), 403, ADMIN_REQUIRED);
      await expectError(await generate(outsider.client, organization.id), 403, ADMIN_REQUIRED);
      const anonymous = createClient(app);
      await expectError(await generate(anonymous, organization.id), 401, "Unauthorized");
      // The token creation is a signed-in page's write: another site's form is refused.
      const forged = await owner.client.request("/api/auth/scim/generate-token", {
        json: { providerId: "x", organizationId: organization.id },
        origin: "https://evil.example",
      });
      await expectError(forged, 403, "Invalid origin");
      const blank = await owner.client.post("/api/auth/scim/generate-token", {
        providerId: " ",
        organizationId: organization.id,
      });
      expect(blank.status).toBe(400);

      const stored = await app.db.selectFrom("scim_token").select("token_hash").execute();
      expect(JSON.stringify(stored)).not.toContain(byAdmin.data.scimToken);
      expect(await auditOf("organization.scim_token_created", organization.id)).toContainEqual({
        actor_id: admin.id,
        actor_label: admin.email,
        organization_id: organization.id,
        details: JSON.stringify({ tokenId: byAdmin.data.token.id, tokenName: "entra-id" }),
      });
    });

    it("are listed without their secret, with their last use, for owners and admins", async () => {
      await okta.get("/ServiceProviderConfig");
      const list = await admin.client.get(`/api/organizations/${organization.id}/scim`);
      expect(list.status).toBe(200);
      expect(list.data.baseUrl).toBe(`${app.config.baseUrl}/api/auth/scim/v2`);
      const listed = list.data.tokens.find((entry: { name: string }) => entry.name === "okta");
      expect(listed).toMatchObject({ name: "okta", revokedAt: null });
      expect(listed.lastUsedAt).not.toBeNull();
      expect(JSON.stringify(list.data)).not.toContain(token);
      await expectError(await member.client.get(`/api/organizations/${organization.id}/scim`), 403, ADMIN_REQUIRED);
      await expectError(
        await outsider.client.get(`/api/organizations/${organization.id}/scim`),
        403,
        "user is not a member of the organization",
      );
    });

    it("are rotated (the old secret stops working) and revoked (401 from then on)", async () => {
      const secret = await newToken("rotating");
      const before = directory(app, secret);
      expect((await before.get("/Users")).status).toBe(200);
      const { id } = (await owner.client.get(`/api/organizations/${organization.id}/scim`)).data.tokens.find(
        (entry: { name: string }) => entry.name === "rotating",
      );
      const rotated = await owner.client.post(`/api/organizations/${organization.id}/scim/tokens/${id}/rotate`);
      expect(rotated.status).toBe(200);
      expect(rotated.data.scimToken).not.toBe(secret);
      expectScimError(await before.get("/Users"), 401, UNAUTHORIZED);
      const after = directory(app, rotated.data.scimToken);
      expect((await after.get("/Users")).status).toBe(200);

      const revoked = await owner.client.request(`/api/organizations/${organization.id}/scim/tokens/${id}`, {
        method: "DELETE",
      });
      expect(revoked.status).toBe(200);
      expect(revoked.data.revokedAt).not.toBeNull();
      const refused = await after.get("/Users");
      expectScimError(refused, 401, UNAUTHORIZED);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="SCIM"');
      expect(await auditOf("organization.scim_token_revoked", organization.id)).toHaveLength(1);
      // Another organization's owner finds no such token.
      await expectError(
        await otherOwner.client.request(`/api/organizations/${otherOrganization.id}/scim/tokens/${id}`, {
          method: "DELETE",
        }),
        404,
        "SCIM token not found",
      );
    });

    it("answer 401 when missing or unknown", async () => {
      const anonymous = createClient(app);
      expectScimError(await anonymous.get(`${SCIM}/Users`), 401, UNAUTHORIZED);
      expectScimError(await directory(app, "atrium_scim_unknown").get("/Users"), 401, UNAUTHORIZED);
    });
  });

  it("describes itself: ServiceProviderConfig (patch and filter, no bulk), ResourceTypes, Schemas", async () => {
    const config = await okta.get("/ServiceProviderConfig");
    expect(config.status).toBe(200);
    expect(config.headers.get("content-type")).toBe("application/scim+json");
    expect(config.data).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 100 },
      authenticationSchemes: [{ type: "oauthbearertoken" }],
    });
    const types = await okta.get("/ResourceTypes");
    expect(types.data.Resources.map((type: { id: string }) => type.id)).toEqual(["User", "Group"]);
    const schemas = await okta.get("/Schemas");
    expect(schemas.data.Resources.map((schema: { id: string }) => schema.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA]);
    expect((await okta.get(`/Schemas/${USER_SCHEMA}`)).data.name).toBe("User");
    expectScimError(await okta.get("/Bulk"), 404, "No SCIM endpoint GET /api/auth/scim/v2/Bulk");
  });

  describe("Users as Okta sends them", () => {
    it("creates a person as a member with the default role, then reads, filters, replaces and deactivates them", async () => {
      const email = `${unique("ada")}@example.com`;
      // Okta looks the person up first.
      const lookup = await okta.get(
        `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`,
      );
      expect(lookup.data).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

      const created = await okta.post("/Users", oktaUser(email));
      expect(created.status).toBe(201);
      expect(created.headers.get("content-type")).toBe("application/scim+json");
      expect(created.data).toMatchObject({
        schemas: [USER_SCHEMA],
        userName: email,
        name: { givenName: "Ada", familyName: "Lovelace" },
        emails: [{ value: email, primary: true }],
        active: true,
        meta: { resourceType: "User", location: `${app.config.baseUrl}${SCIM}/Users/${created.data.id}` },
      });
      const id = created.data.id as string;
      const account = await app.db
        .selectFrom("user")
        .select(["id", "name"])
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      expect(account.name).toBe("Ada Lovelace");
      expect(await membershipOf(organization.id, account.id)).toEqual({ role: "member" });
      expect(await auditOf("member.added", account.id)).toEqual([
        {
          actor_id: null,
          actor_label: "okta",
          organization_id: organization.id,
          details: JSON.stringify({ role: "member", provisioned: true }),
        },
      ]);
      // The members list marks them.
      const members = await owner.client.get(`/api/organizations/${organization.id}/members?limit=100`);
      const listed = members.data.members.find((entry: { userId: string }) => entry.userId === account.id);
      expect(listed.provisioned).toBe(true);
      expect(members.data.members.find((entry: { userId: string }) => entry.userId === owner.id).provisioned).toBe(
        false,
      );

      expect((await okta.get(`/Users/${id}`)).data.userName).toBe(email);
      const found = await okta.get(`/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`);
      expect(found.data.totalResults).toBe(1);
      expect(found.data.Resources[0].id).toBe(id);

      // Okta's profile update is a PUT of the whole user.
      const replaced = await okta.put(`/Users/${id}`, {
        ...oktaUser(email, created.data.externalId),
        id,
        name: { givenName: "Augusta", familyName: "King" },
      });
      expect(replaced.status).toBe(200);
      expect(replaced.data.name).toEqual({ formatted: "Augusta King", givenName: "Augusta", familyName: "King" });
      expect(await auditOf("member.profile_updated", account.id)).toHaveLength(1);

      // Okta deactivates with a PATCH whose value object has no path.
      const deactivated = await okta.patch(`/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", value: { active: false } }],
      });
      expect(deactivated.status).toBe(200);
      expect(deactivated.data.active).toBe(false);
      expect(await membershipOf(organization.id, account.id)).toBeUndefined();
      expect(await auditOf("member.removed", account.id)).toEqual([
        {
          actor_id: null,
          actor_label: "okta",
          organization_id: organization.id,
          details: JSON.stringify({ role: "member", deprovisioned: "inactive", sessionsRevoked: 0 }),
        },
      ]);
      // Reactivated: a member again.
      const reactivated = await okta.patch(`/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", value: { active: true } }],
      });
      expect(reactivated.data.active).toBe(true);
      expect(await membershipOf(organization.id, account.id)).toEqual({ role: "member" });
    });

    it("links a person who has an account, and deprovisioning refuses their open session on its next request", async () => {
      const person = await createVerifiedUser(app, { label: "linked" });
      expect((await person.client.get("/api/auth/get-session")).data?.user.id).toBe(person.id);
      const created = await okta.post("/Users", oktaUser(person.email));
      expect(created.status).toBe(201);
      expect(await membershipOf(organization.id, person.id)).toEqual({ role: "member" });
      expect((await person.client.get(`/api/organizations/${organization.id}/members`)).status).toBe(200);

      const deactivated = await okta.patch(`/Users/${created.data.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", value: { active: false } }],
      });
      expect(deactivated.status).toBe(200);
      expect((await person.client.get("/api/auth/get-session")).data).toBeNull();
      await expectError(await person.client.get(`/api/organizations/${organization.id}/members`), 401, "Unauthorized");
      const sessions = await app.db.selectFrom("session").select("id").where("userId", "=", person.id).execute();
      expect(sessions).toEqual([]);
    });

    it("filters with eq, co and sw on userName, externalId and emails.value, and pages with startIndex and count", async () => {
      const tag = unique("page");
      const ids: string[] = [];
      for (const index of [1, 2, 3]) {
        const response = await okta.post("/Users", oktaUser(`${tag}-${index}@filter.example`, `${tag}-ext-${index}`));
        ids.push(response.data.id);
      }
      const query = (filter: string, extra = "") => okta.get(`/Users?filter=${encodeURIComponent(filter)}${extra}`);
      expect((await query(`userName sw "${tag}"`)).data.totalResults).toBe(3);
      expect(
        (await query(`userName co "${tag.slice(5)}-2@"`)).data.Resources.map((user: { id: string }) => user.id),
      ).toEqual([ids[1]]);
      expect((await query(`externalId eq "${tag}-ext-3"`)).data.Resources[0].id).toBe(ids[2]);
      expect((await query(`emails.value eq "${tag}-1@filter.example"`)).data.Resources[0].id).toBe(ids[0]);
      expect((await query(`userName sw "${tag}" and externalId eq "${tag}-ext-2"`)).data.totalResults).toBe(1);
      const page = await query(`userName sw "${tag}"`, "&startIndex=2&count=1");
      expect(page.data).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
      expect(page.data.Resources[0].id).toBe(ids[1]);
      // Out-of-range paging answers an empty page, never an error.
      const far = await query(`userName sw "${tag}"`, "&startIndex=1e20&count=-5");
      expect(far.status).toBe(200);
      expect(far.data).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] });
      expectScimError(
        await query(`nickName pr`),
        400,
        "The filter is not supported: use eq, co or sw on userName, externalId, emails.value or displayName",
        "invalidFilter",
      );
      expectScimError(
        await query(`userName gt "a"`),
        400,
        "The filter is not supported: use eq, co or sw on userName, externalId, emails.value or displayName",
        "invalidFilter",
      );
    });

    it("matches `_`, `%` and `\\` in a co or sw filter as themselves, not as LIKE's wildcards", async () => {
      const tag = unique("literal");
      const user = (userName: string, index: number) => ({
        ...oktaUser(`${tag}-${index}@filter.example`, `${tag}-ext-${index}`),
        userName,
      });
      const literal = await okta.post("/Users", user(`${tag}_a%1\\`, 1));
      expect(literal.status).toBe(201);
      const lookalike = await okta.post("/Users", user(`${tag}xab1x`, 2));
      const query = async (filter: string) =>
        (await okta.get(`/Users?filter=${encodeURIComponent(filter)}`)).data.Resources.map(
          (user: { id: string }) => user.id,
        );
      expect(await query(`userName co "_a%1\\\\"`)).toEqual([literal.data.id]);
      expect(await query(`userName sw "${tag}_"`)).toEqual([literal.data.id]);
      // Their seats back, for the tests after this one.
      for (const { data } of [literal, lookalike]) expect((await okta.delete(`/Users/${data.id}`)).status).toBe(204);
    });

    it("refuses a duplicate userName with 409 uniqueness, and invalid values with 400", async () => {
      const email = `${unique("dup")}@example.com`;
      expect((await okta.post("/Users", oktaUser(email))).status).toBe(201);
      expectScimError(
        await okta.post("/Users", { ...oktaUser(`${unique("other")}@example.com`), userName: email.toUpperCase() }),
        409,
        "A user with this userName is already provisioned in this organization",
        "uniqueness",
      );
      expectScimError(
        await okta.post("/Users", { ...oktaUser(email), userName: unique("another") }),
        409,
        "This person is already provisioned in this organization under another userName",
        "uniqueness",
      );
      expectScimError(
        await okta.post("/Users", { schemas: [USER_SCHEMA], userName: "no-address" }),
        400,
        "An e-mail address is required: send emails, or a userName that is an e-mail address",
        "invalidValue",
      );
      expectScimError(
        await okta.post("/Users", { schemas: [USER_SCHEMA] }),
        400,
        "userName: Invalid input: expected string, received undefined",
        "invalidValue",
      );
      const broken = await okta.post("/Users", "{not json");
      expectScimError(broken, 400, "The request body is not valid JSON", "invalidSyntax");
      expectScimError(await okta.get(`/Users/${unique("missing")}`), 404, "User not found");
    });
  });

  describe("Users as Entra ID sends them", () => {
    it("creates, patches (capitalised ops, string booleans, filtered paths) and deletes with 204", async () => {
      const entra = directory(app, await newToken("entra"));
      const email = `${unique("grace")}@example.com`;
      // Entra ID probes with a random userName first.
      const probe = await entra.get(`/Users?filter=${encodeURIComponent('userName eq "7a1b3c9e-probe"')}`);
      expect(probe.data.totalResults).toBe(0);
      const created = await entra.post("/Users", entraUser(email));
      expect(created.status).toBe(201);
      const id = created.data.id as string;
      const userId = (await app.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow())
        .id;

      const newEmail = `${unique("hopper")}@example.com`;
      const patched = await entra.patch(`/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: "Replace", path: "displayName", value: "Rear Admiral Hopper" },
          { op: "Replace", path: "name.givenName", value: "Amazing Grace" },
          { op: "Add", path: 'emails[type eq "work"].value', value: newEmail },
          { op: "Replace", path: `${ENTERPRISE}:department`, value: "Navy" },
          { op: "Add", path: "title", value: "Rear Admiral" },
        ],
      });
      expect(patched.status).toBe(200);
      expect(patched.data).toMatchObject({
        displayName: "Rear Admiral Hopper",
        name: { givenName: "Amazing Grace", familyName: "Hopper" },
        emails: [{ value: newEmail }],
        active: true,
      });
      expectScimError(
        await entra.patch(`/Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: "Replace", path: "favoriteColor", value: "x" }],
        }),
        400,
        "The PATCH operation's path is not supported: favoritecolor",
        "invalidPath",
      );
      expectScimError(
        await entra.patch(`/Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: "Replace", path: "active", value: "maybe" }],
        }),
        400,
        "active must be true or false",
        "invalidValue",
      );
      // Entra ID's soft delete: active as the string "False".
      const disabled = await entra.patch(`/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Replace", path: "active", value: "False" }],
      });
      expect(disabled.data.active).toBe(false);
      expect(await membershipOf(organization.id, userId)).toBeUndefined();
      const enabled = await entra.patch(`/Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Replace", path: "active", value: "True" }],
      });
      expect(enabled.data.active).toBe(true);

      const deleted = await entra.delete(`/Users/${id}`);
      expect(deleted.status).toBe(204);
      expect(await membershipOf(organization.id, userId)).toBeUndefined();
      expectScimError(await entra.get(`/Users/${id}`), 404, "User not found");
      expect(
        (await auditOf("member.removed", userId)).map((entry) => [
          entry.actor_label,
          JSON.parse(entry.details ?? "{}").deprovisioned,
        ]),
      ).toEqual([
        ["entra", "inactive"],
        ["entra", "deleted"],
      ]);
    });
  });

  it("refuses to deprovision the organization's only owner", async () => {
    const created = await okta.post("/Users", oktaUser(owner.email));
    expect(created.status).toBe(201);
    expect(await membershipOf(organization.id, owner.id)).toEqual({ role: "owner" });
    expectScimError(
      await okta.patch(`/Users/${created.data.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", path: "active", value: false }],
      }),
      409,
      "This person is the organization's only owner: make someone else an owner before deprovisioning",
    );
    expectScimError(
      await okta.delete(`/Users/${created.data.id}`),
      409,
      "This person is the organization's only owner: make someone else an owner before deprovisioning",
    );
    expect(await membershipOf(organization.id, owner.id)).toEqual({ role: "owner" });
  });

  describe("Groups as teams", () => {
    it("creates a team with members, lists, renames, adds and removes members (Okta and Entra shapes), deletes", async () => {
      const { scim: okta, org } = await freshDirectory("teams");
      const people: Array<{ id: string; userId: string }> = [];
      for (const label of ["g1", "g2", "g3"]) {
        const email = `${unique(label)}@groups.example`;
        const response = await okta.post("/Users", oktaUser(email));
        const userId = (
          await app.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow()
        ).id;
        people.push({ id: response.data.id, userId });
      }
      const name = unique("Engineering");
      const created = await okta.post("/Groups", {
        schemas: [GROUP_SCHEMA],
        displayName: name,
        members: [{ value: people[0]!.id, display: "g1" }],
      });
      expect(created.status).toBe(201);
      expect(created.headers.get("content-type")).toBe("application/scim+json");
      expect(created.data).toMatchObject({
        schemas: [GROUP_SCHEMA],
        displayName: name,
        meta: { resourceType: "Group" },
      });
      expect(created.data.members.map((entry: { value: string }) => entry.value)).toEqual([people[0]!.id]);
      const teamId = created.data.id as string;
      const teamMembers = () =>
        app.db.selectFrom("teamMember").select("userId").where("teamId", "=", teamId).orderBy("userId").execute();
      expect(await teamMembers()).toEqual([{ userId: people[0]!.userId }]);
      expect(await auditOf("team.created", teamId)).toHaveLength(1);

      const listed = await okta.get(
        `/Groups?filter=${encodeURIComponent(`displayName eq "${name}"`)}&excludedAttributes=members`,
      );
      expect(listed.data.totalResults).toBe(1);
      expect(listed.data.Resources[0]).not.toHaveProperty("members");
      // Teams made in the app are not the directory's.
      expect((await okta.get(`/Groups/${org.defaultTeamId}`)).status).toBe(404);

      // Entra ID adds members with a list.
      const added = await okta.patch(`/Groups/${teamId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Add", path: "members", value: [{ value: people[1]!.id }, { value: people[2]!.id }] }],
      });
      expect(added.status).toBe(200);
      expect(await teamMembers()).toHaveLength(3);
      // Okta removes one with a filtered path.
      await okta.patch(`/Groups/${teamId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "remove", path: `members[value eq "${people[0]!.id}"]` }],
      });
      // Entra ID removes with a list.
      await okta.patch(`/Groups/${teamId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "Remove", path: "members", value: [{ value: people[1]!.id }] }],
      });
      expect(await teamMembers()).toEqual([{ userId: people[2]!.userId }]);
      expect(await auditOf("team.member_removed", people[0]!.userId)).toHaveLength(1);
      // Okta renames with a value object that repeats the id.
      const renamed = await okta.patch(`/Groups/${teamId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", value: { id: teamId, displayName: `${name} 2` } }],
      });
      expect(renamed.data.displayName).toBe(`${name} 2`);
      expectScimError(
        await okta.patch(`/Groups/${teamId}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: "add", path: "members", value: [{ value: "nobody" }] }],
        }),
        400,
        "No active user of this organization has the id nobody",
        "invalidValue",
      );
      expectScimError(
        await okta.post("/Groups", { schemas: [GROUP_SCHEMA], displayName: `${name} 2`.toUpperCase() }),
        409,
        "A team with this displayName already exists in this organization",
        "uniqueness",
      );
      // A deprovisioned person leaves the organization's teams.
      await okta.patch(`/Users/${people[2]!.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", value: { active: false } }],
      });
      expect(await teamMembers()).toEqual([]);

      expect((await okta.delete(`/Groups/${teamId}`)).status).toBe(204);
      expect(await app.db.selectFrom("team").select("id").where("id", "=", teamId).executeTakeFirst()).toBeUndefined();
      expectScimError(await okta.get(`/Groups/${teamId}`), 404, "Group not found");
      expect(await auditOf("team.removed", teamId)).toHaveLength(1);
    });
  });

  it("never lets one organization's token read or change another's people or teams (404)", async () => {
    const { scim: okta } = await freshDirectory("isolated");
    const globex = directory(app, await newToken("globex", otherOrganization.id, otherOwner));
    const email = `${unique("isolated")}@example.com`;
    const user = await okta.post("/Users", oktaUser(email));
    const group = await okta.post("/Groups", { schemas: [GROUP_SCHEMA], displayName: unique("Isolated") });
    const path = `/Users/${user.data.id}`;
    expectScimError(await globex.get(path), 404, "User not found");
    expectScimError(await globex.put(path, oktaUser(email)), 404, "User not found");
    expectScimError(
      await globex.patch(path, { schemas: [PATCH_OP], Operations: [{ op: "replace", value: { active: false } }] }),
      404,
      "User not found",
    );
    expectScimError(await globex.delete(path), 404, "User not found");
    expectScimError(await globex.get(`/Groups/${group.data.id}`), 404, "Group not found");
    expectScimError(
      await globex.patch(`/Groups/${group.data.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: "replace", value: { displayName: "x" } }],
      }),
      404,
      "Group not found",
    );
    expectScimError(await globex.delete(`/Groups/${group.data.id}`), 404, "Group not found");
    expect((await globex.get(`/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`)).data.totalResults).toBe(
      0,
    );
    expect((await globex.get("/Groups")).data.totalResults).toBe(0);
    expect((await okta.get(path)).data.active).toBe(true);
  });

  it("answers concurrent creations of one userName with one 201 and 409 uniqueness for the others", async () => {
    const { scim, org } = await freshDirectory("race");
    const email = `${unique("race")}@example.com`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => scim.post("/Users", oktaUser(email))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const answer of answers.filter((candidate) => candidate.status === 409)) {
      expect(answer.data.scimType).toBe("uniqueness");
    }
    const userId = (await app.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow())
      .id;
    expect(await membershipOf(org.id, userId)).toEqual({ role: "member" });
    expect(await auditOf("member.added", userId)).toHaveLength(1);
  });

  it("answers two organizations' directories creating one new person at once without a server error", async () => {
    const [first, second] = await Promise.all([freshDirectory("both-a"), freshDirectory("both-b")]);
    const email = `${unique("shared")}@example.com`;
    const answers = await Promise.all([
      first.scim.post("/Users", oktaUser(email)),
      second.scim.post("/Users", oktaUser(email)),
    ]);
    for (const answer of answers) {
      if (answer.status === 201) continue;
      expectScimError(answer, 409, "Another request changed this person at the same moment: try again");
    }
    expect(answers.some((answer) => answer.status === 201)).toBe(true);
    // The directory's retry links the account the other one created.
    const retried = answers.findIndex((answer) => answer.status !== 201);
    if (retried !== -1) expect((await [first, second][retried]!.scim.post("/Users", oktaUser(email))).status).toBe(201);
    const accounts = await app.db.selectFrom("user").select("id").where("email", "=", email).execute();
    expect(accounts).toHaveLength(1);
    expect(await membershipOf(first.org.id, accounts[0]!.id)).toEqual({ role: "member" });
    expect(await membershipOf(second.org.id, accounts[0]!.id)).toEqual({ role: "member" });
  });

  it("provisions within the plan's seats: past them, the directory is refused and nobody is added", async () => {
    const { scim, org } = await freshDirectory("seats");
    // The owner holds one of the free plan's 10 seats.
    for (let index = 1; index <= 9; index++) {
      expect((await scim.post("/Users", oktaUser(`${unique(`seat${index}`)}@seats.example`))).status).toBe(201);
    }
    const refused = await scim.post("/Users", oktaUser(`${unique("seat10")}@seats.example`));
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ schemas: [ERROR_SCHEMA], status: "403" });
    expect(refused.data.detail).toMatch(/plan/i);
    const members = await app.db.selectFrom("member").select("id").where("organizationId", "=", org.id).execute();
    expect(members).toHaveLength(10);
    expect((await scim.get("/Users")).data.totalResults).toBe(9);
  });
});

describe("SCIM rate limit", () => {
  it("limits each token's requests a minute, separately from other tokens", async () => {
    const app = await createTestApp({ env: { SCIM_REQUESTS_PER_MINUTE: "3" } });
    try {
      const owner = await createVerifiedUser(app, { label: "owner" });
      const organization = await createOrganizationWithOwner(owner, "Limited");
      const tokenOf = async (providerId: string) =>
        (await owner.client.post("/api/auth/scim/generate-token", { providerId, organizationId: organization.id })).data
          .scimToken as string;
      const first = directory(app, await tokenOf("first"));
      for (let index = 0; index < 3; index++) expect((await first.get("/Users")).status).toBe(200);
      const refused = await first.get("/Users");
      expectScimError(refused, 429, "Too many requests. Please try again later.");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await directory(app, await tokenOf("second")).get("/Users")).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
