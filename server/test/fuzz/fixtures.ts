import { randomBytes } from "node:crypto";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  getSession,
  signInOnNewClient,
  type TestUser,
} from "../factories";
import { createClient } from "../request";
import { SANDBOX_PREFIX, server } from "./surface";

/**
 * The fuzz run's fixtures: the callers (anonymous, an organization owner, a platform admin), revived between
 * runs, and the real ids generated inputs may use to get past "not found".
 */

// ---------------------------------------------------------------------------------------------------------
// Fixtures: the callers, and real ids that generated inputs may use to get past "not found"

export const KNOWN_KEYS = [
  "ownerUserId",
  "ownerEmail",
  "ownerUsername",
  "ownerSessionToken",
  "organizationId",
  "organizationSlug",
  "teamId",
  "ownerMemberId",
  "memberUserId",
  "memberEmail",
  "memberMemberId",
  "invitationId",
  "adminUserId",
  "adminEmail",
  "productId",
  "customerId",
  "checkoutId",
  "checkoutSecret",
  "paidCheckoutId",
  "subscriptionId",
  "orderId",
  "portalToken",
] as const;
export type KnownKey = (typeof KNOWN_KEYS)[number];
// The member's and the invitation's ids are not rebuilt with the owner: once the owner is replaced they point into
// another organization, which is one more kind of hostile input.
export const known: Partial<Record<KnownKey, string>> = {};
/** Generated text refers to fixtures by placeholder; they are filled in when the request is sent, as the fixtures may have been rebuilt. */
export const placeholder = (key: string) => `KNOWN_${key}_KNOWN`;
export const PLACEHOLDER = /KNOWN_([A-Za-z]+)_KNOWN/g;

export type PersonaName = "anonymous" | "owner" | "admin";
export type SignedIn = { user: TestUser; cookie: string; token: string };
export const personas: { owner?: SignedIn; admin?: SignedIn } = {};

export async function signedIn(user: TestUser): Promise<SignedIn> {
  const token = (await getSession(user.client))?.session.token;
  const cookie = user.client.jar.header();
  if (!token || !cookie) throw new Error(`${user.email} is not signed in`);
  return { user, cookie, token };
}

export async function isLive(persona: SignedIn): Promise<boolean> {
  const user = await server.db
    .selectFrom("user")
    .select(["id", "banned"])
    .where("id", "=", persona.user.id)
    .executeTakeFirst();
  if (!user || user.banned) return false;
  const session = await server.db
    .selectFrom("session")
    .select(["userId", "expiresAt"])
    .where("token", "=", persona.token)
    .executeTakeFirst();
  return session?.userId === persona.user.id && new Date(session.expiresAt).getTime() > Date.now();
}

/** A persona that a previous run signed out, deleted, banned or locked out (a new password) is signed in again or replaced. */
export async function revive(
  persona: SignedIn | undefined,
  label: string,
): Promise<{ persona: SignedIn; change: "none" | "signed-in" | "new-user" }> {
  if (persona && (await isLive(persona))) return { persona, change: "none" };
  if (persona) {
    const user = await server.db
      .selectFrom("user")
      .select(["banned"])
      .where("id", "=", persona.user.id)
      .executeTakeFirst();
    if (user && !user.banned) {
      try {
        const client = await signInOnNewClient(server, persona.user.input);
        return { persona: await signedIn({ ...persona.user, client }), change: "signed-in" };
      } catch {
        // The password or e-mail was changed by a fuzzed request that succeeded: a new user takes the part.
      }
    }
  }
  return { persona: await signedIn(await createVerifiedUser(server, { label })), change: "new-user" };
}

export async function ensureAdmin(): Promise<void> {
  const { persona } = await revive(personas.admin, "fuzz-admin");
  personas.admin = persona;
  // The platform role is data; a fuzzed set-role may have taken it away.
  await server.db
    .updateTable("user")
    .set({ role: "admin" })
    .where("id", "=", persona.user.id)
    .where("role", "!=", "admin")
    .execute();
  Object.assign(known, { adminUserId: persona.user.id, adminEmail: persona.user.email });
}

export async function ensureOwner(): Promise<void> {
  const { persona, change } = await revive(personas.owner, "fuzz-owner");
  personas.owner = persona;
  const membership =
    change === "new-user"
      ? undefined
      : await server.db
          .selectFrom("member")
          .innerJoin("organization", "organization.id", "member.organizationId")
          .select(["member.id as memberId", "organization.id as organizationId", "organization.slug as slug"])
          .where("member.userId", "=", persona.user.id)
          .where("member.role", "=", "owner")
          .where("organization.id", "=", known.organizationId ?? "")
          .executeTakeFirst();
  if (membership) {
    known.organizationSlug = membership.slug;
    // The owner's requests are meant to act inside their organization: a new session starts without an active one,
    // and a fuzzed request may have switched or cleared it (every failure then replays from the same state).
    const session = await server.db
      .selectFrom("session")
      .select("activeOrganizationId")
      .where("token", "=", persona.token)
      .executeTakeFirst();
    if (session?.activeOrganizationId !== membership.organizationId) {
      const response = await createClient(server).request("/api/auth/organization/set-active", {
        method: "POST",
        json: { organizationId: membership.organizationId },
        headers: { cookie: persona.cookie },
      });
      if (response.status !== 200) throw new Error(`set-active failed: ${response.status} ${await response.text()}`);
    }
    return;
  }
  const organization = await createOrganizationWithOwner(persona.user, "Fuzz");
  const member = await server.db
    .selectFrom("member")
    .select("id")
    .where("organizationId", "=", organization.id)
    .where("userId", "=", persona.user.id)
    .executeTakeFirstOrThrow();
  Object.assign(known, {
    ownerUserId: persona.user.id,
    ownerEmail: persona.user.email,
    ownerUsername: persona.user.input.username,
    ownerSessionToken: persona.token,
    organizationId: organization.id,
    organizationSlug: organization.slug,
    teamId: organization.defaultTeamId,
    ownerMemberId: member.id,
  });
}

export async function ensurePersonas(): Promise<void> {
  await ensureOwner();
  await ensureAdmin();
  known.ownerSessionToken = personas.owner?.token;
}

export async function sandboxCall<T>(method: string, pathname: string, json?: unknown): Promise<T> {
  const response = await createClient(server).request(`${SANDBOX_PREFIX}${pathname}`, {
    method,
    json,
    headers: { authorization: "Bearer fuzz-setup" },
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`sandbox ${method} ${pathname}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

export async function setUpFixtures(): Promise<void> {
  await ensurePersonas();
  const owner = personas.owner!;
  const member = await createVerifiedUser(server, { label: "fuzz-member" });
  known.memberMemberId = await addMember(owner.user, known.organizationId!, member);
  Object.assign(known, { memberUserId: member.id, memberEmail: member.email });
  const invitation = await owner.user.client.post("/api/auth/organization/invite-member", {
    email: `invitee.${randomBytes(4).toString("hex")}@example.test`,
    role: "member",
    organizationId: known.organizationId,
  });
  if (invitation.status !== 200)
    throw new Error(`invite failed: ${invitation.status} ${JSON.stringify(invitation.data)}`);
  known.invitationId = invitation.data.id;

  await ensureSandbox();
}

export async function sandboxStatus(pathname: string, authorization = "Bearer fuzz-setup"): Promise<number> {
  const response = await createClient(server).request(`${SANDBOX_PREFIX}${pathname}`, { headers: { authorization } });
  await response.text();
  return response.status;
}

/**
 * The sandbox's fixtures (a customer with a paid subscription and an order, an open checkout, a portal session) are checked before every sandbox request: fuzzed requests that succeed delete customers,
 * archive products, confirm checkouts, move the clock past sessions' expiry or reset the whole sandbox.
 */
export async function ensureSandbox(): Promise<void> {
  const isUsable =
    known.portalToken !== undefined &&
    (await sandboxStatus("/v1/customer-portal/orders", `Bearer ${known.portalToken}`)) === 200 &&
    (await sandboxStatus(`/v1/checkouts/client/${known.checkoutSecret}`)) === 200 &&
    (await sandboxStatus(`/v1/subscriptions/${known.subscriptionId}`)) === 200;
  if (isUsable) return;
  type Listed = { items: Array<{ id: string; is_recurring?: boolean; is_archived?: boolean }> };
  const products = (await sandboxCall<Listed>("GET", "/v1/products?limit=100")).items.filter(
    (item) => !item.is_archived,
  );
  const product = products.find((item) => item.is_recurring) ?? products[0];
  if (!product) throw new Error("the sandbox has no products");
  const customer = await sandboxCall<{ id: string }>("POST", "/v1/customers", {
    email: `billing.${randomBytes(4).toString("hex")}@example.test`,
  });
  const paid = await sandboxCall<{ id: string }>("POST", "/v1/checkouts", {
    products: [product.id],
    customer_id: customer.id,
  });
  await sandboxCall("POST", `/sandbox/checkouts/${paid.id}/complete`, {});
  const subscriptions = await sandboxCall<Listed>("GET", `/v1/subscriptions?customer_id=${customer.id}`);
  const orders = await sandboxCall<Listed>("GET", `/v1/orders?customer_id=${customer.id}`);
  const open = await sandboxCall<{ id: string; client_secret: string }>("POST", "/v1/checkouts", {
    products: [product.id],
    customer_id: customer.id,
  });
  const session = await sandboxCall<{ token: string }>("POST", "/v1/customer-sessions", { customer_id: customer.id });
  Object.assign(known, {
    productId: product.id,
    customerId: customer.id,
    checkoutId: open.id,
    checkoutSecret: open.client_secret,
    paidCheckoutId: paid.id,
    subscriptionId: subscriptions.items[0]?.id,
    orderId: orders.items[0]?.id,
    portalToken: session.token,
  });
}
