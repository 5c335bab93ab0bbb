import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifiedUser, uniqueSlug, type TestUser } from "../test/factories";
import { expectError } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

/**
 * Avatars and logos are shown from their URL, and the pages' Content-Security-Policy lets pictures load over https
 * only: an http URL is refused when it is saved, not accepted and then never shown.
 */

let server: TestApp;
let person: TestUser;

beforeAll(async () => {
  server = await createTestApp();
  person = await createVerifiedUser(server, { label: "Pictured" });
});

afterAll(async () => {
  await server?.close();
});

describe("picture URLs", () => {
  it("refuses an http avatar with 400 and keeps an https one", async () => {
    await expectError(
      await person.client.post("/api/auth/update-user", { image: "http://images.example.test/a.png" }),
      400,
      "image: Enter a full URL, starting with https://",
    );
    const saved = await person.client.post("/api/auth/update-user", { image: "https://images.example.test/a.png" });
    expect(saved.status).toBe(200);
    const row = await server.db.selectFrom("user").select("image").where("id", "=", person.id).executeTakeFirst();
    expect(row?.image).toBe("https://images.example.test/a.png");
  });

  it("refuses an http organization logo with 400", async () => {
    await expectError(
      await person.client.post("/api/auth/organization/create", {
        name: "Logo over http",
        slug: uniqueSlug("http-logo"),
        logo: "http://images.example.test/logo.png",
      }),
      400,
      "logo: Enter a full URL, starting with https://",
    );
  });
});
