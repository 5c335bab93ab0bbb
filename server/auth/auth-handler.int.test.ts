import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createVerifiedUser, type TestUser } from "../test/factories";
import { createTestApp, type TestApp } from "../test/test-database";
import type { Auth } from "./auth";
import { createAuthHandler } from "./auth-handler";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe("better-auth's handler with its router built once", () => {
  test("concurrent requests of different people each get their own session", async () => {
    const users: TestUser[] = [];
    for (let index = 0; index < 6; index += 1) users.push(await createVerifiedUser(app, { label: `routed-${index}` }));
    // Distinct URLs: each is a first read, answered by better-auth, not replayed.
    const reads = users.flatMap((user, index) =>
      [1, 2, 3].map(async (round) => {
        const response = await user.client.get(`/api/auth/get-session?round=${round}&user=${index}`);
        return [response.status, response.data?.user?.id];
      }),
    );
    expect(await Promise.all(reads)).toEqual(users.flatMap((user) => [1, 2, 3].map(() => [200, user.id])));
  });

  test("refuses options whose base URL or trusted origins depend on the request", () => {
    const auth = app.services.auth;
    const withOptions = (options: object) => ({ ...auth, options: { ...auth.options, ...options } }) as Auth;
    const message = "the auth handler needs a fixed baseURL, trustedOrigins and trustedProviders";
    expect(() => createAuthHandler(withOptions({ trustedOrigins: () => [] }))).toThrow(message);
    expect(() => createAuthHandler(withOptions({ baseURL: { allowedHosts: ["a.test"] } }))).toThrow(message);
    expect(() => createAuthHandler(auth)).not.toThrow();
  });
});
