import { Hono } from "hono";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAppErrorHandler } from "../app-errors";
import type { Logger } from "../logger";
import {
  addMember,
  buildUser,
  createOrganizationWithOwner,
  createVerifiedUser,
  uniqueSlug,
  type TestUser,
} from "../test/factories";
import { createClient, readJson, type TestResponse } from "../test/request";
import { recordingLogger, type LogRecord } from "../test/recording-logger";
import { createTestApp, type TestApp } from "../test/test-database";

/**
 * The app's one error handler end to end, on the database of the run (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL): concurrent duplicates answer what the sequential duplicate answers and leave one row,
 * and an unknown error is logged as an object through the app's logger and answered with the generic 500.
 */

const RACERS = 8;
const GENERIC_500 = {
  code: "INTERNAL_ERROR",
  message: "Something went wrong on our side. Please try again.",
  requestId: expect.any(String),
};

type Answer = { status: number; message?: string };

const answerOf = (response: TestResponse): Answer => ({
  status: response.status,
  message: (response.data as { message?: string } | null)?.message,
});

/** Fires `RACERS` requests at once; `send(i)` builds the i-th. */
function race(send: (index: number) => Promise<TestResponse>): Promise<TestResponse[]> {
  return Promise.all(Array.from({ length: RACERS }, (_, index) => send(index)));
}

/** Exactly one request won, and every other one answered exactly `loser`. */
function expectOneWinner(responses: TestResponse[], loser: Answer) {
  const answers = responses.map(answerOf);
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  expect(answers.filter((answer) => answer.status !== 200)).toEqual(Array.from({ length: RACERS - 1 }, () => loser));
}

function silentLogger(): Logger {
  return recordingLogger([]);
}

describe("concurrent duplicates answer what the sequential duplicate answers, never 500", () => {
  let server: TestApp;

  beforeAll(async () => {
    server = await createTestApp();
  });

  afterAll(async () => {
    await server?.close();
  });

  it("organizations created with the same slug: one, the rest 400 'organization already exists', and no organization without its owner", async () => {
    const owner = await createVerifiedUser(server, { label: "racing-creator" });
    const slug = uniqueSlug("race");
    const loser = { status: 400, message: "organization already exists" };

    const responses = await race((index) =>
      owner.client.post("/api/auth/organization/create", { name: `Race ${index}`, slug }),
    );

    expectOneWinner(responses, loser);
    expect(answerOf(await owner.client.post("/api/auth/organization/create", { name: "Again", slug }))).toEqual(loser);
    const organizations = await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute();
    expect(organizations).toHaveLength(1);
    const organizationId = organizations[0]!.id;
    expect(
      await server.db
        .selectFrom("member")
        .select(["userId", "role"])
        .where("organizationId", "=", organizationId)
        .execute(),
    ).toEqual([{ userId: owner.id, role: "owner" }]);
    expect(
      await server.db.selectFrom("team").select("id").where("organizationId", "=", organizationId).execute(),
    ).toHaveLength(1);
    const ownerless = await server.db
      .selectFrom("organization")
      .leftJoin("member", "member.organizationId", "organization.id")
      .where("member.id", "is", null)
      .select("organization.id")
      .execute();
    expect(ownerless).toEqual([]);
  });

  it("the same invitation: one, the rest 400 'User is already invited to this organization', one pending row and one mail", async () => {
    const owner = await createVerifiedUser(server, { label: "racing-inviter" });
    const { id: organizationId } = await createOrganizationWithOwner(owner);
    const email = `invitee.${uniqueSlug()}@example.test`;
    const invite = () =>
      owner.client.post("/api/auth/organization/invite-member", { email, role: "member", organizationId });
    const loser = { status: 400, message: "User is already invited to this organization" };

    expectOneWinner(await race(invite), loser);
    expect(answerOf(await invite())).toEqual(loser);
    const pending = await server.db
      .selectFrom("invitation")
      .select("id")
      .where("organizationId", "=", organizationId)
      .where("email", "=", email)
      .execute();
    expect(pending).toHaveLength(1);
    expect(
      await server.db.selectFrom("mail_outbox").select("id").where("to_address", "=", email).execute(),
    ).toHaveLength(1);
  });

  it("concurrent updates to the same slug: one, the rest 400 'slug is taken'", async () => {
    const owner = await createVerifiedUser(server, { label: "racing-renamer" });
    const organizations = await Promise.all(
      Array.from({ length: RACERS + 1 }, (_, index) => createOrganizationWithOwner(owner, `Renamed ${index}`)),
    );
    const slug = uniqueSlug("renamed");
    const rename = (index: number) =>
      owner.client.post("/api/auth/organization/update", { organizationId: organizations[index]!.id, data: { slug } });
    const loser = { status: 400, message: "slug is taken" };

    expectOneWinner(await race(rename), loser);
    expect(answerOf(await rename(RACERS))).toEqual(loser);
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toHaveLength(1);
  });

  it("the same user added to a team at once: every answer is the sequential repeat's 200 with the one membership", async () => {
    const owner = await createVerifiedUser(server, { label: "racing-team-owner" });
    const organization = await createOrganizationWithOwner(owner);
    const user = await createVerifiedUser(server, { label: "racing-team-member" });
    await addMember(owner, organization.id, user);
    const add = () =>
      owner.client.post("/api/auth/organization/add-team-member", {
        teamId: organization.defaultTeamId,
        userId: user.id,
        organizationId: organization.id,
      });

    const responses = await race(add);

    const repeat = await add();
    expect(repeat.status).toBe(200);
    expect(responses.map((response) => ({ status: response.status, id: response.data?.id }))).toEqual(
      responses.map(() => ({ status: 200, id: repeat.data.id })),
    );
    const rows = await server.db
      .selectFrom("teamMember")
      .select("id")
      .where("teamId", "=", organization.defaultTeamId)
      .where("userId", "=", user.id)
      .execute();
    expect(rows).toEqual([{ id: repeat.data.id }]);
    const team = await server.db
      .selectFrom("team")
      .select("memberCount")
      .where("id", "=", organization.defaultTeamId)
      .executeTakeFirstOrThrow();
    const members = await server.db
      .selectFrom("teamMember")
      .select("id")
      .where("teamId", "=", organization.defaultTeamId)
      .execute();
    expect(Number(team.memberCount)).toBe(members.length);
  });

  it("sign-ups with the same username: one, the rest 422 'username is already taken. please try another.'", async () => {
    const username = `racer_${uniqueSlug().replace(/-/g, "_")}`;
    const signUp = () => createClient(server).post("/api/auth/sign-up/email", buildUser({ username }));
    const loser = { status: 422, message: "username is already taken. please try another." };

    expectOneWinner(await race(signUp), loser);
    expect(answerOf(await signUp())).toEqual(loser);
    expect(await server.db.selectFrom("user").select("id").where("username", "=", username).execute()).toHaveLength(1);
  });

  it("users renaming themselves to the same username: one, the rest 422 'username is already taken. please try another.'", async () => {
    const editors = await Promise.all(Array.from({ length: RACERS + 1 }, () => createVerifiedUser(server)));
    const username = `renamed_${uniqueSlug().replace(/-/g, "_")}`;
    const rename = (index: number) => editors[index]!.client.post("/api/auth/update-user", { username });
    const loser = { status: 422, message: "username is already taken. please try another." };

    expectOneWinner(await race(rename), loser);
    expect(answerOf(await rename(RACERS))).toEqual(loser);
    expect(await server.db.selectFrom("user").select("id").where("username", "=", username).execute()).toHaveLength(1);
  });
});

describe("the unique indexes of the conflict table, as this database names them in a violation", () => {
  let server: TestApp;

  beforeAll(async () => {
    server = await createTestApp();
  });

  afterAll(async () => {
    await server?.close();
  });

  /** Answers a real violation of this database through the app's handler, as if it came from `path`. */
  async function answerFor(path: string, violate: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
    const app = new Hono();
    app.onError(createAppErrorHandler(silentLogger()));
    app.post(path, async () => {
      await violate();
      throw new Error("the insert did not violate anything");
    });
    const response = await app.request(path, { method: "POST" });
    return { status: response.status, body: await response.json() };
  }

  it("maps each to its answer", async () => {
    const owner = await createVerifiedUser(server, { label: "index-owner" });
    const organization = await createOrganizationWithOwner(owner);
    const [user, outsider] = await Promise.all([
      createVerifiedUser(server, { label: "index-member" }),
      createVerifiedUser(server, { label: "index-outsider" }),
    ]);
    await addMember(owner, organization.id, user);
    await owner.client.post("/api/auth/organization/add-team-member", {
      teamId: organization.defaultTeamId,
      userId: user.id,
      organizationId: organization.id,
    });
    const email = `pending.${uniqueSlug()}@example.test`;
    expect(
      (
        await owner.client.post("/api/auth/organization/invite-member", {
          email,
          role: "member",
          organizationId: organization.id,
        })
      ).status,
    ).toBe(200);
    const copyOf = async (
      table: "organization" | "invitation" | "teamMember" | "user",
      where: string,
      value: string,
      changes: Record<string, unknown>,
    ) => {
      const row = await server.db
        .selectFrom(table)
        .selectAll()
        .where(sql.ref(where), "=", value)
        .executeTakeFirstOrThrow();
      await server.db
        .insertInto(table)
        .values({ ...row, id: `copy-${uniqueSlug()}`, ...changes } as never)
        .execute();
    };
    const slugTaken = () => copyOf("organization", "slug", organization.slug, {});

    expect(await answerFor("/api/auth/organization/create", slugTaken)).toEqual({
      status: 400,
      body: { code: "ORGANIZATION_ALREADY_EXISTS", message: "organization already exists" },
    });
    expect(await answerFor("/api/auth/organization/update", slugTaken)).toEqual({
      status: 400,
      body: { code: "ORGANIZATION_SLUG_ALREADY_TAKEN", message: "slug is taken" },
    });
    expect(
      await answerFor("/api/auth/organization/invite-member", () => copyOf("invitation", "email", email, {})),
    ).toEqual({
      status: 400,
      body: {
        code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
        message: "User is already invited to this organization",
      },
    });
    const conflict = {
      status: 409,
      body: { code: "CONFLICT", message: "The user was added to this team by another request at the same moment." },
    };
    expect(
      await answerFor("/api/auth/organization/add-team-member", () =>
        copyOf("teamMember", "userId", user.id, { membershipKey: null }),
      ),
    ).toEqual(conflict);
    expect(
      await answerFor("/api/auth/organization/add-team-member", () =>
        copyOf("teamMember", "userId", user.id, { userId: outsider.id }),
      ),
    ).toEqual(conflict);
    const username = (
      await server.db.selectFrom("user").select("username").where("id", "=", user.id).executeTakeFirstOrThrow()
    ).username!;
    expect(
      await answerFor("/api/auth/update-user", () =>
        copyOf("user", "id", user.id, { email: `copy.${uniqueSlug()}@example.test`, username }),
      ),
    ).toEqual({
      status: 422,
      body: { code: "USERNAME_IS_ALREADY_TAKEN", message: "username is already taken. please try another." },
    });
    expect(await answerFor("/api/auth/update-user", () => copyOf("user", "id", user.id, { username: null }))).toEqual({
      status: 409,
      body: {
        code: "CONFLICT",
        message: "Another request changed the same data at the same moment. Please try again.",
      },
    });
  });
});

describe("an unknown error", () => {
  const lines: LogRecord[] = [];
  let app: TestApp;
  let owner: TestUser;
  let organizationId: string;

  beforeAll(async () => {
    app = await createTestApp({ logger: recordingLogger(lines) });
    owner = await createVerifiedUser(app);
    const created = await owner.client.post("/api/auth/organization/create", {
      name: "Broken",
      slug: uniqueSlug("broken"),
    });
    organizationId = created.data.id;
    // The invitation table goes missing: every read or write of it fails inside the database driver.
    await sql`ALTER TABLE ${sql.table("invitation")} RENAME TO ${sql.table("invitation_moved")}`.execute(
      app.services.database.db,
    );
  });

  afterEach(() => {
    vi.restoreAllMocks();
    lines.length = 0;
  });

  afterAll(async () => {
    await app?.close();
  });

  const errorLines = () => lines.filter((line) => line.level === "error");

  it("in an app route is logged as an object by the error handler and answered with the generic 500", async () => {
    const response = await createClient(app).get("/api/invitations/some-invitation");

    expect(response.status).toBe(500);
    expect(await readJson(response)).toEqual(GENERIC_500);
    expect(errorLines()).toHaveLength(1);
    const [line] = errorLines();
    expect(line).toMatchObject({
      message: "unhandled error",
      fields: { method: "GET", path: "/api/invitations/some-invitation" },
    });
    const error = line!.fields!.error as Record<string, unknown>;
    expect(error).toMatchObject({
      name: expect.any(String),
      message: expect.stringContaining("invitation"),
      stack: expect.any(String),
    });
    expect(error.code).toBe(app.database.dialect === "postgres" ? "42P01" : "SQLITE_ERROR");
    expect(JSON.stringify(lines)).not.toContain("[object Object]");
  });

  it("inside better-auth reaches the same handler: logged without the request body, a JSON 500, nothing on the console", async () => {
    const consoleError = vi.spyOn(console, "error");
    const email = `secret.${uniqueSlug()}@example.test`;

    const response = await owner.client.post("/api/auth/organization/invite-member", {
      email,
      role: "member",
      organizationId,
    });

    expect(response.status).toBe(500);
    expect(await readJson(response)).toEqual(GENERIC_500);
    expect(consoleError).not.toHaveBeenCalled();
    expect(errorLines().map((line) => line.message)).toContain("unhandled error");
    const handled = errorLines().find((line) => line.message === "unhandled error")!;
    expect(handled.fields).toMatchObject({
      method: "POST",
      path: "/api/auth/organization/invite-member",
      error: { message: expect.stringContaining("invitation") },
    });
    expect(JSON.stringify(handled)).not.toContain(email);
  });
});
