import { runWithEndpointContext } from "@better-auth/core/context";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DISPLAY_NAME_MESSAGES } from "../../common/display-name";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../test/factories";
import { buildUser, uniqueSlug } from "../test/factories";
import { createClient, randomIp, readJson } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

/**
 * Every endpoint that takes a user's, an organization's or a team's name applies the one display-name rule
 * (common/display-name.ts): a name that hides its content, reorders it or holds a broken character is
 * refused with 400 and the message the forms show; a good one is stored normalised.
 */

const ADMIN_EMAIL = `admin.${buildUser().username}@example.test`;

const BAD_NAMES = [
  { label: "only zero-width spaces", name: "\u200B\u200B\u200B", message: DISPLAY_NAME_MESSAGES.invisible },
  { label: "joiners and a byte order mark", name: "\u200D\uFEFF\u2060", message: DISPLAY_NAME_MESSAGES.invisible },
  { label: "a right-to-left override", name: "Acme\u202Egpj.exe", message: DISPLAY_NAME_MESSAGES.directionControl },
  { label: "an isolate", name: "Acme\u2066x\u2069", message: DISPLAY_NAME_MESSAGES.directionControl },
  { label: "a lone surrogate", name: "Acme\uD800", message: DISPLAY_NAME_MESSAGES.brokenCharacter },
  { label: "a line break", name: "Acme\nCorp", message: DISPLAY_NAME_MESSAGES.controlCharacter },
];

type Fixtures = { organizationId: string; teamId: string; userId: string };
type Endpoint = { path: string; field: string; body: (name: string, f: Fixtures) => Record<string, unknown> };

const ENDPOINTS: Endpoint[] = [
  { path: "/sign-up/email", field: "name", body: (name) => ({ ...buildUser(), name }) },
  { path: "/update-user", field: "name", body: (name) => ({ name }) },
  { path: "/organization/create", field: "name", body: (name) => ({ name, slug: uniqueSlug() }) },
  {
    path: "/organization/update",
    field: "data.name",
    body: (name, f) => ({ organizationId: f.organizationId, data: { name } }),
  },
  { path: "/organization/create-team", field: "name", body: (name, f) => ({ organizationId: f.organizationId, name }) },
  { path: "/organization/update-team", field: "data.name", body: (name, f) => ({ teamId: f.teamId, data: { name } }) },
  {
    path: "/admin/create-user",
    field: "name",
    body: (name) => ({ name, email: buildUser().email, password: buildUser().password }),
  },
  {
    path: "/admin/create-user",
    field: "data.name",
    body: (name) => ({ name: "Created", email: buildUser().email, password: buildUser().password, data: { name } }),
  },
  { path: "/admin/update-user", field: "data.name", body: (name, f) => ({ userId: f.userId, data: { name } }) },
];

let app: TestApp;
let admin: TestUser;
let fixtures: Fixtures;

beforeAll(async () => {
  app = await createTestApp({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
  admin = await createVerifiedUser(app, { email: ADMIN_EMAIL });
  const other = await createVerifiedUser(app);
  const organization = await createOrganizationWithOwner(admin, "Names");
  fixtures = { organizationId: organization.id, teamId: organization.defaultTeamId, userId: other.id };
});

afterAll(async () => {
  await app?.close();
});

const post = (path: string, body: unknown) => admin.client.post(`/api/auth${path}`, body, { ip: randomIp() });

describe("a bad display name", () => {
  const cases = ENDPOINTS.flatMap((endpoint) => BAD_NAMES.map((bad) => ({ ...endpoint, ...bad })));

  test.each(cases)("$path ($field) refuses $label: 400 $message", async ({ path, field, body, name, message }) => {
    const response = await post(path, body(name, fixtures));
    expect({ status: response.status, body: await readJson(response) }).toEqual({
      status: 400,
      body: { code: "VALIDATION_ERROR", message: `${field}: ${message}`, requestId: expect.any(String) },
    });
  });

  test("is refused on an anonymous sign-up too, and no user is created", async () => {
    const input = { ...buildUser(), name: "\u200B" };
    const response = await createClient(app).post("/api/auth/sign-up/email", input);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toMatchObject({ message: `name: ${DISPLAY_NAME_MESSAGES.invisible}` });
    const { db } = app.services.database;
    expect(await db.selectFrom("user").select("id").where("email", "=", input.email).execute()).toEqual([]);
  });
});

describe("a good display name", () => {
  test("is stored trimmed and composed (NFC) for users, organizations and teams", async () => {
    const user = buildUser();
    const signedUp = await createClient(app).post("/api/auth/sign-up/email", { ...user, name: "\u00A0Zoe\u0308 " });
    expect(signedUp.status).toBe(200);
    const created = await post("/organization/create", { name: " =1+1\u3000", slug: uniqueSlug() });
    expect(created.status).toBe(200);
    const organizationId = (await readJson<{ id: string }>(created)).id;
    const team = await post("/organization/create-team", { organizationId, name: "\u00A0=2+2 " });
    expect(team.status).toBe(200);
    const renamed = await post("/organization/update-team", {
      teamId: fixtures.teamId,
      data: { name: " A\u030Angstro\u0308m ", organizationId: fixtures.organizationId },
    });
    expect(renamed.status).toBe(200);
    expect(await readJson(renamed)).toMatchObject({ name: "Ångström" });
    const profile = await post("/update-user", { name: "\uFEFF Admin\u2003" });
    expect(profile.status).toBe(200);

    const { db } = app.services.database;
    type Table = "user" | "organization" | "team";
    const names = async (table: Table, column: "email" | "id" | "organizationId", value: string) =>
      (await db.selectFrom(table).select("name").where(column, "=", value).execute()).map((row) => row.name).sort();
    expect(await names("user", "email", user.email)).toEqual(["Zoë"]);
    expect(await names("user", "id", admin.id)).toEqual(["Admin"]);
    expect(await names("organization", "id", organizationId)).toEqual(["=1+1"]);
    // The default team takes the organization's (normalised) name.
    expect(await names("team", "organizationId", organizationId)).toEqual(["=1+1", "=2+2"]);
    expect(await names("team", "id", fixtures.teamId)).toEqual(["Ångström"]);
  });

  // better-auth's admin plugin hook rewrites this body when a username is given; the name stays normalised.
  test("an admin-created user's name is stored normalised, a username given too", async () => {
    const input = buildUser();
    const response = await post("/admin/create-user", {
      name: " Ada\u00A0",
      email: input.email,
      password: input.password,
      data: { username: input.username },
    });
    expect(response.status).toBe(200);
    const { db } = app.services.database;
    const rows = await db.selectFrom("user").select(["name", "username"]).where("email", "=", input.email).execute();
    expect(rows).toEqual([{ name: "Ada", username: input.username.toLowerCase() }]);
  });
});

describe("a name from a sign-in provider", () => {
  // Provider profiles never pass through the request schemas: better-auth creates the user from them directly.
  test.each([
    ["a right-to-left override", "Acme\u202Egpj.exe", "Acmegpj.exe"],
    ["padding, a line break and decomposed text", " Zoe\u0308\nLund ", "Zoë Lund"],
    ["only zero-width spaces (the address's local part stands in)", "\u200B\u200B", "provider.person"],
  ])("with %s is stored cleaned", async (_case, name, stored) => {
    const context = await app.services.auth.$context;
    const email = `provider.person@${uniqueSlug()}.example.test`;
    // What better-auth's OAuth callback does with a new profile, inside an endpoint's context as there.
    const source = { method: "oauth" as const, oauth: { providerId: "dev" } };
    const create = () => context.internalAdapter.createUser({ name, email, emailVerified: true }, source);
    // Only `context` is read (by the validateUserInfo gate); an endpoint's other fields are not needed here.
    const endpoint = { context } as unknown as Parameters<typeof runWithEndpointContext>[0];
    const user = await runWithEndpointContext(endpoint, create);
    const { db } = app.services.database;
    const row = await db.selectFrom("user").select("name").where("id", "=", user.id).executeTakeFirst();
    expect(row).toEqual({ name: stored });
  });
});
