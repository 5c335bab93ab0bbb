// The product under test: started as `npm start` starts it, on the bench's database, and given what the measured paths
// need (a signed-in platform admin who owns an organization of 100 members), the way the web app would create it.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BenchDatabase } from "./database";
import { nextClientAddress } from "./load";
import { root, startServer, type ServerProcess } from "./processes";
import { freePort } from "../server/test/free-port";
import { newId, type SeededUser } from "./users";

export type BenchAccount = {
  email: string;
  password: string;
  userId: string;
  organizationId: string;
  cookie: string;
  /** An API key of the organization with `members:read`, as its owner creates one in the settings. */
  apiKey: string;
};

/**
 * `npm start`'s own command (package.json's `start` script: node, its flags, scripts/start.mjs), spawned directly
 * so that the measured pid is the server's; the builds are fresh, so it runs the compiled server at once.
 */
function startCommand(): { nodeFlags: string[]; entry: string } {
  const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const [node, ...rest] = scripts.start.split(/\s+/);
  const entry = rest.pop();
  if (node !== "node" || !entry)
    throw new Error(`package.json's start script is not "node [flags] file": ${scripts.start}`);
  return { nodeFlags: rest, entry };
}

/**
 * The product as `npm start` runs it, in a process of its own; development mode (the default), with the bench's database.
 * `nodeOptions` go to node (a CPU profile); `label` names the log file in the data folder.
 */
export async function startProduct(
  database: BenchDatabase,
  options: { nodeOptions?: string[]; label?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const { nodeFlags, entry } = startCommand();
  return startServer({
    entry,
    port,
    readyPath: "/healthz",
    logFile: path.join(database.dataDir, `${options.label ?? "product"}.log`),
    nodeOptions: [...nodeFlags, ...(options.nodeOptions ?? [])],
    env: {
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      // The origin the bench's requests name; the origin check stays on.
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      LOG_LEVEL: "error",
      // The bench is the proxy in front of its simulated clients.
      TRUSTED_PROXIES: "127.0.0.1",
      // Nothing from the developer's environment that would change what is measured.
      TRUSTED_ORIGINS: "",
      ADMIN_EMAILS: "",
      ADMIN_USER_IDS: "",
      REDIS_URL: "",
      SMTP_URL: "",
      // One key makes every request of the API-key path: its per-key limit (600 a minute by default) would answer
      // 429 within the first second. The highest value keeps the limit's counting, per request, in what is measured.
      API_KEY_REQUESTS_PER_MINUTE: "1000000",
    },
  });
}

/** Cookies as a browser keeps them: the latest value of each name. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const separator = pair.indexOf("=");
      if (separator > 0) this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/** One API call as the web app makes it (same origin, JSON), from a client address of its own; throws unless 2xx. */
export async function callApi(
  baseUrl: string,
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; jar?: CookieJar } = {},
): Promise<unknown> {
  const headers: Record<string, string> = { origin: baseUrl, "x-forwarded-for": nextClientAddress() };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const cookie = options.jar?.header();
  if (cookie) headers.cookie = cookie;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  options.jar?.store(response);
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * The bench's account: signed up through the API; its e-mail verified and its platform role set to admin in the
 * database (what the mailed link and `npm run admin -- grant` would do), before it signs in, so no session was ever
 * made with the old values; then an organization created through the API (with its default team, as the web app
 * creates one) and plain members added by `addMembers`, as accepted invitations without a team add them; and an API
 * key of the organization with `members:read`, created by the owner through the API.
 */
export async function seedBenchAccount(
  baseUrl: string,
  database: BenchDatabase,
  addMembers: (organizationId: string) => Promise<void>,
): Promise<BenchAccount> {
  const { db, dialect } = database.handle;
  const email = "bench-owner@example.test";
  const password = "bench-password-1";
  await callApi(baseUrl, "POST", "/api/auth/sign-up/email", { body: { name: "Bench Owner", email, password } });
  const { id: userId } = await db
    .updateTable("user")
    .set({ emailVerified: dialect === "postgres" ? true : 1, role: "admin" })
    .where("email", "=", email)
    .returning("id")
    .executeTakeFirstOrThrow();

  const jar = new CookieJar();
  await callApi(baseUrl, "POST", "/api/auth/sign-in/email", { body: { email, password }, jar });
  const organization = (await callApi(baseUrl, "POST", "/api/auth/organization/create", {
    body: { name: "Bench Org", slug: "bench-org" },
    jar,
  })) as {
    id: string;
  };
  await addMembers(organization.id);
  await callApi(baseUrl, "POST", "/api/auth/organization/set-active", {
    body: { organizationId: organization.id },
    jar,
  });
  const { key } = (await callApi(baseUrl, "POST", `/api/organizations/${organization.id}/api-keys`, {
    body: { name: "Bench members reader", scopes: ["members:read"] },
    jar,
  })) as { key: string };
  return { email, password, userId, organizationId: organization.id, cookie: jar.header(), apiKey: key };
}

/** The users join the organization as plain members, a millisecond apart in that order, just after its owner. */
export async function addMembers(
  database: BenchDatabase,
  organizationId: string,
  members: readonly Pick<SeededUser, "id">[],
): Promise<void> {
  const joinedFrom = Date.now();
  await database.handle.db
    .insertInto("member")
    .values(
      members.map((member, index) => ({
        id: newId(),
        organizationId,
        userId: member.id,
        role: "member",
        createdAt: new Date(joinedFrom + index + 1).toISOString(),
      })),
    )
    .execute();
}
