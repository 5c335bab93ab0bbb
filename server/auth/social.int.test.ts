import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, readJson } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

describe("social sign-in", () => {
  let withGithub: TestApp;
  let withoutProviders: TestApp;

  beforeAll(async () => {
    [withGithub, withoutProviders] = await Promise.all([
      createTestApp({ env: { GITHUB_CLIENT_ID: "atrium-test-client", GITHUB_CLIENT_SECRET: "atrium-test-secret" } }),
      createTestApp(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withGithub.close(), withoutProviders.close()]);
  });

  it("answers with the provider's authorize URL, carrying a state, for a configured provider", async () => {
    const response = await createClient(withGithub).post("/api/auth/sign-in/social", { provider: "github", callbackURL: "/" });
    expect(response.status).toBe(200);
    const body = await readJson<{ url: string; redirect: boolean }>(response);
    expect(body.redirect).toBe(true);
    const url = new URL(body.url);
    expect(`${url.origin}${url.pathname}`).toBe("https://github.com/login/oauth/authorize");
    expect(url.searchParams.get("client_id")).toBe("atrium-test-client");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3000/api/auth/callback/github");
    expect(url.searchParams.get("state")).toMatch(/.{16,}/);
  });

  it("refuses a callbackURL on a foreign origin", async () => {
    const response = await createClient(withGithub).post("/api/auth/sign-in/social", { provider: "github", callbackURL: "https://evil.example/steal" });
    expect(response.status).toBe(403);
  });

  it("refuses a provider that is not configured, and /api/meta lists only configured ones", async () => {
    const client = createClient(withoutProviders);
    const response = await client.post("/api/auth/sign-in/social", { provider: "github", callbackURL: "/" });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect((await readJson<{ socialProviders: string[] }>(await client.get("/api/meta"))).socialProviders).toEqual([]);
    expect((await readJson<{ socialProviders: string[] }>(await createClient(withGithub).get("/api/meta"))).socialProviders).toEqual(["github"]);
  });
});
