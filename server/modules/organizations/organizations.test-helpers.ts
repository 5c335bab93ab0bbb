import { randomBytes } from "node:crypto";
import { createTestApp, type TestApp } from "../../test/test-database";
import { createClient, type TestClient as HarnessClient } from "../../test/request";
import { createVerifiedUser, signInOnNewClient, type UserInput } from "../../test/factories";

/**
 * Organization-test conveniences on top of the shared harness (server/test): a server with direct database
 * access, clients whose answers come back parsed, signed-in users, organizations and members.
 */

export type TestServer = TestApp & {
  db: TestApp["services"]["database"]["db"];
  dialect: TestApp["services"]["database"]["dialect"];
};

/** Starts the app on a fresh database with the given extra environment (e.g. ORGANIZATION_LIMIT). */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const testApp = await createTestApp({ env });
  return Object.assign(testApp, { db: testApp.services.database.db, dialect: testApp.services.database.dialect });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely: each test asserts the fields it reads
type AnyBody = any;

export type TestResponse<T = AnyBody> = { status: number; body: T; headers: Headers };

/** A browser (the shared harness's client: cookie jar, own address, Origin on writes) whose answers come back parsed. */
export class TestClient {
  readonly harness: HarnessClient;

  constructor(server: TestServer, harness?: HarnessClient) {
    this.harness = harness ?? createClient(server);
  }

  get address(): string {
    return this.harness.ip;
  }

  cookieHeader(): string {
    return this.harness.jar.header() ?? "";
  }

  async request<T = AnyBody>(method: string, path: string, body?: unknown): Promise<TestResponse<T>> {
    const response = await this.harness.request(path, body === undefined ? { method } : { method, json: body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = AnyBody>(path: string) {
    return this.request<T>("GET", path);
  }

  post<T = AnyBody>(path: string, body: unknown = {}) {
    return this.request<T>("POST", path, body);
  }
}

export type TestUser = { id: string; email: string; name: string; input: UserInput; client: TestClient };

/** A user who signed up and followed the mailed verification link (which signs them in). */
export async function createSignedInUser(server: TestServer, label = "user", email?: string): Promise<TestUser> {
  const suffix = randomBytes(4).toString("hex");
  const created = await createVerifiedUser(server, { name: `${label} ${suffix}`, ...(email ? { email } : {}) });
  return { id: created.user.id, email: created.input.email, name: created.input.name, input: created.input, client: new TestClient(server, created.client) };
}

/** A further session (another browser, another address) of an existing user. */
export async function signIn(server: TestServer, user: TestUser): Promise<TestClient> {
  return new TestClient(server, await signInOnNewClient(server, user.input));
}

let slugCounter = 0;
export function uniqueSlug(prefix = "org"): string {
  slugCounter += 1;
  return `${prefix}-${slugCounter}-${randomBytes(3).toString("hex")}`;
}

export type CreatedOrganization = { id: string; name: string; slug: string; defaultTeamId: string };

/** Creates an organization as the given user (it becomes their active one) and returns its default team. */
export async function createOrganization(server: TestServer, owner: TestUser, name = "Acme"): Promise<CreatedOrganization> {
  const slug = uniqueSlug(name.toLowerCase().replace(/[^a-z0-9]+/g, "-"));
  const response = await owner.client.post("/api/auth/organization/create", { name, slug });
  if (response.status !== 200) throw new Error(`create organization failed: ${response.status} ${JSON.stringify(response.body)}`);
  const team = await server.db.selectFrom("team").select("id").where("organizationId", "=", response.body.id).executeTakeFirstOrThrow();
  return { id: response.body.id, name, slug, defaultTeamId: team.id };
}

/** Adds an existing user to an organization the way a user would: invited by the owner, accepted by the user. */
export async function addMember(owner: TestUser, organizationId: string, user: TestUser, role: string | string[] = "member"): Promise<string> {
  const invite = await owner.client.post("/api/auth/organization/invite-member", { email: user.email, role, organizationId });
  if (invite.status !== 200) throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.body)}`);
  const accept = await user.client.post("/api/auth/organization/accept-invitation", { invitationId: invite.body.id });
  if (accept.status !== 200) throw new Error(`accept failed: ${accept.status} ${JSON.stringify(accept.body)}`);
  return accept.body.member.id as string;
}

/** The active organization of the client's session, as get-session shows it. */
export async function activeOrganizationOf(client: TestClient): Promise<string | null> {
  const session = await client.get<{ session: { activeOrganizationId: string | null } } | null>("/api/auth/get-session");
  return session.body?.session.activeOrganizationId ?? null;
}
