import { randomBytes } from "node:crypto";
import type { DevMail } from "../modules/mail";
import { createClient, readJson, type TestClient } from "./request";
import type { TestApp } from "./test-database";

export type UserInput = { name: string; email: string; username: string; password: string };

/** A user nobody else in the run has: unique e-mail and username, a valid password. */
export function buildUser(overrides: Partial<UserInput> = {}): UserInput {
  const suffix = randomBytes(5).toString("hex");
  return {
    name: `Test User ${suffix}`,
    email: `user.${suffix}@example.test`,
    username: `user_${suffix}`,
    password: `Pw-${randomBytes(8).toString("hex")}`,
    ...overrides,
  };
}

export type SignedInUser = { input: UserInput; client: TestClient; user: { id: string; email: string; username: string | null } };

/** Signs up; the answer is checked so a broken sign-up fails where it happens. */
export async function signUp(
  app: TestApp,
  input: UserInput = buildUser(),
  client: TestClient = createClient(app),
): Promise<{ input: UserInput; client: TestClient; userId: string }> {
  const response = await client.post("/api/auth/sign-up/email", input);
  const body = await readJson<{ user?: { id: string } }>(response);
  if (response.status !== 200 || !body.user) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(body)}`);
  return { input, client, userId: body.user.id };
}

/** Sign up, follow the link of the verification mail (which signs in), and return the signed-in client. */
export async function createVerifiedUser(app: TestApp, overrides: Partial<UserInput> = {}): Promise<SignedInUser> {
  const { input, client } = await signUp(app, buildUser(overrides));
  const mail = await readLatestMail(app, input.email, (candidate) => candidate.subject.startsWith("Verify your e-mail"));
  const verify = await client.get(extractLink(mail));
  if (verify.status >= 400) throw new Error(`verification failed: ${verify.status} ${await verify.text()}`);
  const session = await readJson<{ user?: SignedInUser["user"] } | null>(await client.get("/api/auth/get-session"));
  if (!session?.user) throw new Error("the verification link did not sign the user in");
  return { input, client, user: session.user };
}

/** Signs in with e-mail and password on a client of its own (a second device). */
export async function signInOnNewClient(app: TestApp, input: UserInput): Promise<TestClient> {
  const client = createClient(app);
  const response = await client.post("/api/auth/sign-in/email", { email: input.email, password: input.password });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return client;
}

/** Lists the dev mailbox for one address (newest first) after delivering everything due. */
export async function listMails(app: TestApp, to: string): Promise<DevMail[]> {
  await app.services.worker.drain();
  const response = await createClient(app).get(`/api/dev/mail?to=${encodeURIComponent(to)}`);
  if (response.status !== 200) throw new Error(`dev mailbox answered ${response.status}`);
  return readJson<DevMail[]>(response);
}

/**
 * The newest mail to `to` (that `matches`), polling the dev mailbox until it arrives: some mails are
 * queued after the response was sent.
 */
export async function readLatestMail(app: TestApp, to: string, matches: (mail: DevMail) => boolean = () => true, timeoutMs = 5_000): Promise<DevMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await listMails(app, to)).find(matches);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no matching mail to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
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
