import { randomBytes } from "node:crypto";
import type { DevMail } from "../modules/mail";
import { createClient, type RequestTarget, type TestClient } from "./request";

/**
 * Factories of users, organizations and memberships, shared by the tests (the seed has its own client). They go
 * through the HTTP API the way a browser would (a `TestClient` against an in-process app), so they need an
 * app and its base URL, never the test runner nor the app's background services. The ones that read mail
 * need an app whose outbox can be delivered on demand (`MailTarget`: the test apps of test-database.ts).
 */

/** An app whose queued mail can be delivered into the dev mailbox on demand. */
export type MailTarget = RequestTarget & { services: { worker: { drain(): Promise<unknown> } } };

export type UserInput = { name: string; email: string; username: string; password: string };

/** A user nobody else in the run has: unique e-mail and username, a valid password; `label` starts the name. */
export function buildUser(overrides: Partial<UserInput> & { label?: string } = {}): UserInput {
  const { label = "Test User", ...fields } = overrides;
  const suffix = randomBytes(5).toString("hex");
  return {
    name: `${label} ${suffix}`,
    email: `user.${suffix}@example.test`,
    username: `user_${suffix}`,
    password: `Pw-${randomBytes(8).toString("hex")}`,
    ...fields,
  };
}

/** A signed-in user: who they are, what they signed up with, and their browser. */
export type TestUser = {
  id: string;
  email: string;
  name: string;
  username: string;
  input: UserInput;
  client: TestClient;
};

/** Signs up; the answer is checked so a broken sign-up fails where it happens. */
export async function signUp(
  target: RequestTarget,
  input: UserInput = buildUser(),
  client: TestClient = createClient(target),
): Promise<{ input: UserInput; client: TestClient; userId: string }> {
  const response = await client.post("/api/auth/sign-up/email", input);
  const userId = (response.data as { user?: { id?: string } } | null)?.user?.id;
  if (response.status !== 200 || !userId)
    throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.data)}`);
  return { input, client, userId };
}

/** Signs in with e-mail and password on a client of its own (a second device). */
export async function signInOnNewClient(
  target: RequestTarget,
  input: Pick<UserInput, "email" | "password">,
): Promise<TestClient> {
  const client = createClient(target);
  const response = await client.post("/api/auth/sign-in/email", { email: input.email, password: input.password });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return client;
}

export type SessionBody = {
  session: { id: string; token: string; userId: string; activeOrganizationId?: string | null };
  user: {
    id: string;
    email: string;
    emailVerified: boolean;
    username: string | null;
    displayUsername: string | null;
    name: string;
    role: string | null;
  };
} | null;

/** The client's session as get-session answers it (null when signed out). */
export async function getSession(client: TestClient): Promise<SessionBody> {
  const response = await client.get("/api/auth/get-session");
  if (response.status !== 200) throw new Error(`get-session answered ${response.status} ${await response.text()}`);
  return response.data as SessionBody;
}

/** The active organization of the client's session, as get-session shows it. */
export async function activeOrganizationOf(client: TestClient): Promise<string | null> {
  return (await getSession(client))?.session.activeOrganizationId ?? null;
}

/** The signed-in user behind a client, in the shape the factories return. */
export async function signedInUser(input: UserInput, client: TestClient): Promise<TestUser> {
  const user = (await getSession(client))?.user;
  if (!user) throw new Error(`${input.email} is not signed in`);
  return { id: user.id, email: user.email, name: user.name, username: user.username ?? input.username, input, client };
}

/** Sign up, follow the link of the verification mail (which signs in), and return the signed-in user. */
export async function createVerifiedUser(
  target: MailTarget,
  overrides: Partial<UserInput> & { label?: string } = {},
): Promise<TestUser> {
  const { input, client } = await signUp(target, buildUser(overrides));
  const mail = await readLatestMail(target, input.email, (candidate) =>
    candidate.subject.startsWith("Verify your e-mail"),
  );
  const verify = await client.get(extractLink(mail));
  if (verify.status >= 400) throw new Error(`verification failed: ${verify.status} ${await verify.text()}`);
  return signedInUser(input, client);
}

let slugCounter = 0;
/** An organization slug nobody else in the run has. */
export function uniqueSlug(prefix = "org"): string {
  slugCounter += 1;
  return `${prefix}-${slugCounter}-${randomBytes(3).toString("hex")}`;
}

export type CreatedOrganization = { id: string; name: string; slug: string; defaultTeamId: string };

/**
 * Creates an organization as the given signed-in user, who becomes its owner (and it their active organization),
 * and returns it with its default team.
 */
export async function createOrganizationWithOwner(
  owner: { client: TestClient },
  name = "Acme",
  slug = uniqueSlug(name.toLowerCase().replace(/[^a-z0-9]+/g, "-")),
): Promise<CreatedOrganization> {
  const response = await owner.client.post("/api/auth/organization/create", { name, slug });
  if (response.status !== 200)
    throw new Error(`create organization failed: ${response.status} ${JSON.stringify(response.data)}`);
  const id = (response.data as { id: string }).id;
  const teams = await owner.client.get(`/api/auth/organization/list-teams?organizationId=${encodeURIComponent(id)}`);
  const defaultTeamId = (teams.data as Array<{ id: string }> | null)?.[0]?.id;
  if (teams.status !== 200 || !defaultTeamId)
    throw new Error(`list teams failed: ${teams.status} ${JSON.stringify(teams.data)}`);
  return { id, name, slug, defaultTeamId };
}

/**
 * Adds an existing user to an organization the way a user would: invited by the owner, accepted by the user.
 * `resend` renews an invitation that is already pending instead of failing on it. Returns the member id.
 */
export async function addMember(
  owner: { client: TestClient },
  organizationId: string,
  user: { email: string; client: TestClient },
  role: string | string[] = "member",
  options: { resend?: boolean } = {},
): Promise<string> {
  const invite = await owner.client.post("/api/auth/organization/invite-member", {
    email: user.email,
    role,
    organizationId,
    ...(options.resend ? { resend: true } : {}),
  });
  if (invite.status !== 200) throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.data)}`);
  const accept = await user.client.post("/api/auth/organization/accept-invitation", {
    invitationId: (invite.data as { id: string }).id,
  });
  if (accept.status !== 200) throw new Error(`accept failed: ${accept.status} ${JSON.stringify(accept.data)}`);
  return (accept.data as { member: { id: string } }).member.id;
}

/** Lists the dev mailbox for one address (newest first) after delivering everything due. */
export async function listMails(target: MailTarget, to: string): Promise<DevMail[]> {
  await target.services.worker.drain();
  const response = await createClient(target).get(`/api/dev/mail?to=${encodeURIComponent(to)}`);
  if (response.status !== 200) throw new Error(`dev mailbox answered ${response.status}`);
  return response.data as DevMail[];
}

/**
 * The newest mail to `to` (that `matches`), polling the dev mailbox until it arrives: some mails are
 * queued after the response was sent.
 */
export async function readLatestMail(
  target: MailTarget,
  to: string,
  matches: (mail: DevMail) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<DevMail> {
  return waitFor(async () => (await listMails(target, to)).find(matches), {
    timeoutMs,
    what: `a matching mail to ${to}`,
  });
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const { timeoutMs = 5_000, what = "the condition" } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The first link in a mail's text body, as a path + query relative to the app (the app's own origin). */
export function extractLink(mail: Pick<DevMail, "text">, options: { absolute?: boolean } = {}): string {
  const match = /https?:\/\/[^\s<>"]+/.exec(mail.text);
  if (!match) throw new Error(`no link in mail: ${mail.text}`);
  if (options.absolute) return match[0];
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

/** The token query parameter (or last path segment) of a mailed link. */
export function extractToken(link: string): string {
  const url = new URL(link, "http://localhost");
  const token = url.searchParams.get("token") ?? url.pathname.split("/").pop();
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}
