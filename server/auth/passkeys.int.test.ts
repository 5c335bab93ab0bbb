import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifiedUser, getSession, type TestUser } from "../test/factories";
import { createClient, expectError, randomIp, type TestClient } from "../test/request";
import { SoftwareCredential, type CeremonyOptions } from "../test/software-authenticator";
import { createTestApp, type TestApp } from "../test/test-database";

type ListedPasskey = { id: string; name: string | null; createdAt: string; lastUsedAt: string | null };

describe("passkeys", () => {
  let app: TestApp;
  let origin: string;
  let rpId: string;

  beforeAll(async () => {
    app = await createTestApp();
    origin = new URL(app.config.baseUrl).origin;
    rpId = new URL(app.config.baseUrl).hostname;
  });
  afterAll(async () => {
    await app.close();
  });

  /** The registration options the signed-in client gets, as the browser would read them. */
  async function registrationOptions(client: TestClient): Promise<CeremonyOptions> {
    const options = await client.get("/api/auth/passkey/generate-register-options");
    expect(options.status).toBe(200);
    const { challenge, rp } = options.data as { challenge: string; rp: { id: string } };
    return { challenge, rpId: rp.id, origin };
  }

  /** Registers a new software credential on the signed-in client's account under `name`. */
  async function register(client: TestClient, name: string): Promise<SoftwareCredential> {
    const credential = new SoftwareCredential();
    const response = credential.register(await registrationOptions(client));
    const answer = await client.post("/api/auth/passkey/verify-registration", { response, name });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ name, credentialID: credential.id });
    return credential;
  }

  /** Signs in with `credential` on a new client (the autofill or the button's ceremony), returning the answer. */
  async function signInWith(credential: SoftwareCredential, overrides: Partial<CeremonyOptions> = {}) {
    const client = createClient(app);
    const options = await client.get("/api/auth/passkey/generate-authenticate-options");
    expect(options.status).toBe(200);
    const { challenge, rpId: optionsRpId } = options.data as { challenge: string; rpId: string };
    expect(optionsRpId).toBe(rpId);
    const response = credential.authenticate({ challenge, origin, rpId, ...overrides });
    const answer = await client.post("/api/auth/passkey/verify-authentication", { response });
    return { client, answer };
  }

  async function listPasskeys(client: TestClient): Promise<ListedPasskey[]> {
    const answer = await client.get("/api/auth/passkey/list-user-passkeys");
    expect(answer.status).toBe(200);
    return answer.data as ListedPasskey[];
  }

  it("registers several named passkeys, lists them with their dates, and signs in with one as the first factor", async () => {
    const person = await createVerifiedUser(app);
    const options = await registrationOptions(person.client);
    expect(options.rpId).toBe(rpId);

    const laptop = await register(person.client, "Work laptop");
    await register(person.client, "Phone");
    const listed = await listPasskeys(person.client);
    expect(
      listed.map(({ name, lastUsedAt }) => ({ name, lastUsedAt })).sort((a, b) => a.name!.localeCompare(b.name!)),
    ).toEqual([
      { name: "Phone", lastUsedAt: null },
      { name: "Work laptop", lastUsedAt: null },
    ]);
    expect(Number.isNaN(Date.parse(listed[0]!.createdAt))).toBe(false);

    const before = Date.now();
    const { client, answer } = await signInWith(laptop);
    expect(answer.status).toBe(200);
    expect((await getSession(client))?.user.id).toBe(person.id);

    const used = (await listPasskeys(person.client)).find((passkey) => passkey.name === "Work laptop")!;
    expect(Date.parse(used.lastUsedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await listPasskeys(person.client)).find((passkey) => passkey.name === "Phone")!.lastUsedAt).toBeNull();
  });

  it("renames and deletes a passkey; a deleted one no longer signs in", async () => {
    const person = await createVerifiedUser(app);
    const credential = await register(person.client, "Old name");
    const [passkey] = await listPasskeys(person.client);

    const renamed = await person.client.post("/api/auth/passkey/update-passkey", {
      id: passkey!.id,
      name: " Desk key ",
    });
    expect(renamed.status).toBe(200);
    expect((await listPasskeys(person.client)).map(({ name }) => name)).toEqual(["Desk key"]);

    const deleted = await person.client.post("/api/auth/passkey/delete-passkey", { id: passkey!.id });
    expect(deleted.status).toBe(200);
    expect(deleted.data).toEqual({ status: true });
    expect(await listPasskeys(person.client)).toEqual([]);

    const { client, answer } = await signInWith(credential);
    await expectError(answer, 401, "Passkey not found");
    expect(await getSession(client)).toBeNull();
  });

  it("refuses another person's passkey to rename or delete as if it did not exist", async () => {
    const owner = await createVerifiedUser(app);
    const other: TestUser = await createVerifiedUser(app);
    await register(owner.client, "Owner's key");
    const [passkey] = await listPasskeys(owner.client);

    const renamed = await expectError(
      await other.client.post("/api/auth/passkey/update-passkey", { id: passkey!.id, name: "Mine now" }),
      404,
      "Passkey not found",
    );
    expect(renamed.code).toBe("PASSKEY_NOT_FOUND");
    await expectError(
      await other.client.post("/api/auth/passkey/delete-passkey", { id: passkey!.id }),
      404,
      "Passkey not found",
    );
    await expectError(
      await owner.client.post("/api/auth/passkey/delete-passkey", { id: "no-such-passkey" }),
      404,
      "Passkey not found",
    );

    expect((await listPasskeys(owner.client)).map(({ name }) => name)).toEqual(["Owner's key"]);
    expect(await listPasskeys(other.client)).toEqual([]);
  });

  it("needs a session to register, list, rename or delete", async () => {
    const anonymous = createClient(app);
    expect((await anonymous.get("/api/auth/passkey/generate-register-options")).status).toBe(401);
    expect((await anonymous.get("/api/auth/passkey/list-user-passkeys")).status).toBe(401);
    expect((await anonymous.post("/api/auth/passkey/delete-passkey", { id: "some-passkey" })).status).toBe(401);
    expect((await anonymous.post("/api/auth/passkey/update-passkey", { id: "some-passkey", name: "x" })).status).toBe(
      401,
    );
    const response = new SoftwareCredential().register({ challenge: "AAAA", origin, rpId });
    expect((await anonymous.post("/api/auth/passkey/verify-registration", { response })).status).toBe(401);
  });

  it("refuses a ceremony made for another origin or RP id, and a request from another origin", async () => {
    const person = await createVerifiedUser(app);
    const stranger = new SoftwareCredential();
    const foreign = stranger.register({
      ...(await registrationOptions(person.client)),
      origin: "https://evil.example",
    });
    await expectError(
      await person.client.post("/api/auth/passkey/verify-registration", { response: foreign, name: "Evil" }),
      400,
      "Failed to verify registration",
    );
    const otherRp = stranger.register({ ...(await registrationOptions(person.client)), rpId: "evil.example" });
    await expectError(
      await person.client.post("/api/auth/passkey/verify-registration", { response: otherRp, name: "Evil" }),
      400,
      "Failed to verify registration",
    );
    expect(await listPasskeys(person.client)).toEqual([]);

    const credential = await register(person.client, "Laptop");
    const wrongOrigin = await signInWith(credential, { origin: "https://evil.example" });
    await expectError(wrongOrigin.answer, 400, "Authentication failed");
    expect(await getSession(wrongOrigin.client)).toBeNull();

    const client = createClient(app);
    const options = await client.get("/api/auth/passkey/generate-authenticate-options");
    const { challenge } = options.data as { challenge: string };
    const response = credential.authenticate({ challenge, origin, rpId });
    const crossSite = await client.post(
      "/api/auth/passkey/verify-authentication",
      { response },
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect((crossSite.data as { code?: string }).code).toBe("INVALID_ORIGIN");
    expect(await getSession(client)).toBeNull();
  });

  it("answers a sign-in without a challenge, or with a challenge used once already, with 400", async () => {
    const person = await createVerifiedUser(app);
    const credential = await register(person.client, "Laptop");
    const response = credential.authenticate({ challenge: "AAAA", origin, rpId });
    await expectError(
      await createClient(app).post("/api/auth/passkey/verify-authentication", { response }),
      400,
      "Challenge not found",
    );

    const client = createClient(app);
    const options = await client.get("/api/auth/passkey/generate-authenticate-options");
    const { challenge } = options.data as { challenge: string };
    const first = credential.authenticate({ challenge, origin, rpId });
    expect((await client.post("/api/auth/passkey/verify-authentication", { response: first })).status).toBe(200);
    const replay = credential.authenticate({ challenge, origin, rpId });
    await expectError(
      await client.post("/api/auth/passkey/verify-authentication", { response: replay }),
      400,
      "Challenge not found",
    );
  });

  it("limits passkey sign-in attempts per client address", async () => {
    const ip = randomIp();
    const credential = new SoftwareCredential();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const response = credential.authenticate({ challenge: "AAAA", origin, rpId });
      statuses.push((await createClient(app, ip).post("/api/auth/passkey/verify-authentication", { response })).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
    // Another address is not affected.
    const response = credential.authenticate({ challenge: "AAAA", origin, rpId });
    expect((await createClient(app).post("/api/auth/passkey/verify-authentication", { response })).status).toBe(400);
  });
});
