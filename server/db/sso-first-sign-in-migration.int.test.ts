import { afterAll, beforeAll, expect, test } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser } from "../test/factories";
import { createTestApp, type TestApp } from "../test/test-database";
import { toIsoString } from "./database";
import { migrations } from "./migrate";

/** Migration 0023 on both databases: an SSO provider that people signed in through before it counts as tested. */

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => app?.close());

test("sets a provider's first sign-in to its first linked account's creation, and leaves the others null", async () => {
  const db = app.services.database.db;
  const migration = migrations["0023-sso-first-sign-in"]!;
  const owner = await createVerifiedUser(app, { label: "owner" });
  const organization = await createOrganizationWithOwner(owner, "Acme");
  await migration.down!(db);

  for (const providerId of ["used-oidc", "unused-oidc"]) {
    await db
      .insertInto("ssoProvider")
      .values({
        id: providerId,
        issuer: "https://idp.example.test",
        oidcConfig: null,
        samlConfig: null,
        userId: owner.id,
        providerId,
        organizationId: organization.id,
        domain: `${providerId}.example.test`,
        domainVerified: app.dialect === "sqlite" ? 1 : true,
        domainVerificationToken: null,
      })
      .execute();
  }
  const first = new Date("2026-03-01T10:00:00.000Z");
  const later = new Date("2026-05-01T10:00:00.000Z");
  for (const [id, createdAt] of [
    ["account-later", later],
    ["account-first", first],
  ] as const) {
    await db
      .insertInto("account")
      .values({
        id,
        accountId: id,
        providerId: "used-oidc",
        userId: owner.id,
        password: null,
        accessToken: null,
        refreshToken: null,
        email: null,
        createdAt: createdAt.toISOString(),
        updatedAt: createdAt.toISOString(),
      })
      .execute();
  }

  await migration.up(db);
  const rows = await db
    .selectFrom("ssoProvider")
    .select(["providerId", "firstSignInAt"])
    .orderBy("providerId")
    .execute();
  expect(rows.map((row) => ({ providerId: row.providerId, firstSignInAt: toIsoString(row.firstSignInAt) }))).toEqual([
    { providerId: "unused-oidc", firstSignInAt: null },
    { providerId: "used-oidc", firstSignInAt: first.toISOString() },
  ]);
});
