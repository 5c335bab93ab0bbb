import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { BillingOverview } from "../../../common/billing.schemas";
import {
  createOrganizationWithOwner,
  createVerifiedUser,
  type CreatedOrganization,
  type TestUser,
} from "../../test/factories";
import { signWebhook } from "../../test/billing";
import { expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The provider's webhook receiver, `POST /api/billing/webhooks`, driven the way the provider drives it: signed
 * deliveries over HTTP to the app's real port, then the billing worker applies what was stored.
 */

let server: TestApp;
let owner: TestUser;
let secret: string;

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  owner = await createVerifiedUser(server);
  if (!server.config.billing) throw new Error("billing is not configured in the test app");
  secret = server.config.billing.webhookSecret;
});
afterAll(async () => server.close());
afterEach(() => vi.restoreAllMocks());

// Delivering

/** The provider's signature (keyed with the UTF-8 bytes of the whole `whsec_…` secret), or one with other key bytes. */
function sign(id: string, timestamp: number, body: string, key: Uint8Array | string = secret): string {
  return signWebhook(key, id, timestamp, body);
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

type Delivery = { status: number; body: unknown; ms: number; response: Response };

/** Posts raw bytes to the receiver with the given headers (undefined leaves a header out), over HTTP. */
async function post(body: string, headers: Record<string, string | undefined>): Promise<Delivery> {
  const sent: Record<string, string> = { "content-type": "application/json", "user-agent": "polar.sh webhooks" };
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
  const started = performance.now();
  const response = await fetch(`${server.config.baseUrl}/api/billing/webhooks`, {
    method: "POST",
    headers: sent,
    body,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body: parsed, ms, response: new Response(text, { status: response.status }) };
}

/** Signs and delivers a body as the provider does; `id` is the webhook-id (reused on a redelivery). */
async function deliver(body: string, id: string = randomUUID(), timestamp: number = nowSeconds()): Promise<Delivery> {
  return post(body, {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": sign(id, timestamp, body),
  });
}

/** The provider's envelope: `{type, timestamp, data}`. */
function envelope(type: string, data: Record<string, unknown>, timestamp = new Date().toISOString()): string {
  return JSON.stringify({ type, timestamp, data });
}

async function findEvent(id: string) {
  return server.db.selectFrom("billing_webhook_event").selectAll().where("id", "=", id).executeTakeFirst();
}

async function countEvents(ids?: string[]): Promise<number> {
  let query = server.db
    .selectFrom("billing_webhook_event")
    .select((eb) => eb.fn.countAll<number | string>().as("count"));
  if (ids) query = query.where("id", "in", ids);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/** Keeps the worker from waking on a delivery, so what the receiver stored can be read before it is applied. */
function holdWorker() {
  return vi.spyOn(server.services.billingWorker, "nudge").mockImplementation(() => undefined);
}

async function overviewOf(organizationId: string): Promise<BillingOverview> {
  const response = await owner.client.get(`/api/organizations/${organizationId}/billing`);
  expect(response.status).toBe(200);
  return response.data as BillingOverview;
}

// Provider objects (snake_case, as the provider sends them)

const PRODUCT_ID = "prod_webhook_test_pro";

function product() {
  return {
    id: PRODUCT_ID,
    name: "Pro monthly",
    description: null,
    recurring_interval: "month",
    is_recurring: true,
    is_archived: false,
    organization_id: "provider-organization",
    metadata: { plan: "pro" },
    prices: [],
    benefits: [],
    medias: [],
    attached_custom_fields: [],
    created_at: "2025-01-01T00:00:00.000000+00:00",
    modified_at: null,
  };
}

function subscription(options: {
  id: string;
  organizationId: string;
  customerId: string;
  status: string;
  modifiedAt: string;
}) {
  return {
    id: options.id,
    status: options.status,
    created_at: "2025-03-01T09:00:00.000000+00:00",
    modified_at: options.modifiedAt,
    product_id: PRODUCT_ID,
    product: product(),
    customer: { id: options.customerId, external_id: options.organizationId },
    customer_id: options.customerId,
    current_period_start: "2025-03-01T09:00:00.000000+00:00",
    current_period_end: "2025-04-01T09:00:00.000000+00:00",
    cancel_at_period_end: false,
    amount: 2900,
    currency: "usd",
    recurring_interval: "month",
    seats: null,
    meters: [],
    checkout_id: null,
    discount_id: null,
    canceled_at: null,
    ends_at: null,
    customer_cancellation_reason: null,
    metadata: {},
  };
}

function customer(options: { id: string; organizationId: string | null }) {
  return {
    id: options.id,
    external_id: options.organizationId,
    email: "billing@example.com",
    email_verified: false,
    name: "Billing Person",
    billing_address: null,
    tax_id: null,
    organization_id: "provider-organization",
    metadata: {},
    avatar_url: null,
    deleted_at: null,
    created_at: "2025-02-01T00:00:00.000000+00:00",
    modified_at: null,
  };
}

function customerState(options: { id: string; organizationId: string; features: string[] }) {
  return {
    ...customer(options),
    active_subscriptions: [],
    active_meters: [],
    granted_benefits: options.features.map((feature, index) => ({
      id: `grant_${feature}`,
      created_at: "2025-03-01T09:00:00.000000+00:00",
      modified_at: null,
      granted_at: "2025-03-01T09:00:00.000000+00:00",
      benefit_id: `benefit_${index}_${feature}`,
      benefit_type: "feature_flag",
      benefit_metadata: { feature },
      properties: {},
    })),
  };
}

/** An event about a customer Atrium has never heard of. */
function strangerSubscription(status = "active") {
  return envelope(
    "subscription.updated",
    subscription({
      id: `sub_${randomUUID()}`,
      organizationId: randomUUID(),
      customerId: `cus_${randomUUID()}`,
      status,
      modifiedAt: new Date().toISOString(),
    }),
  );
}

// Verification

describe("verification", () => {
  it("accepts a delivery signed with the UTF-8 bytes of the whole whsec_ secret, answers 202 at once and stores it pending", async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]+$/);
    const nudge = holdWorker();
    const id = randomUUID();
    const body = strangerSubscription();
    const answer = await deliver(body, id);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ received: true, duplicate: false });
    expect(answer.ms).toBeLessThan(2_000);
    expect(nudge).toHaveBeenCalledTimes(1);
    const stored = await findEvent(id);
    expect(stored).toMatchObject({
      id,
      type: "subscription.updated",
      payload: body,
      status: "pending",
      attempts: 0,
      applied_at: null,
    });
  });

  it.each([
    ["webhook-id", "missing"],
    ["webhook-timestamp", "missing"],
    ["webhook-signature", "missing"],
    ["webhook-id", "empty"],
    ["webhook-timestamp", "empty"],
    ["webhook-signature", "empty"],
  ])("refuses a delivery whose %s header is %s: 400 Missing required headers", async (header, how) => {
    const id = randomUUID();
    const timestamp = nowSeconds();
    const body = strangerSubscription();
    const before = await countEvents();
    const headers: Record<string, string | undefined> = {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": sign(id, timestamp, body),
    };
    headers[header] = how === "missing" ? undefined : "";
    const answer = await post(body, headers);
    const error = await expectError(answer.response, 400, "Missing required headers");
    expect(error.code).toBe("WEBHOOK_VERIFICATION_FAILED");
    expect(await findEvent(id)).toBeUndefined();
    expect(await countEvents()).toBe(before);
  });

  it("refuses a timestamp that is not a number: 400 Invalid Signature Headers", async () => {
    const id = randomUUID();
    const body = strangerSubscription();
    // Signed for now: a valid signature does not make up for a timestamp that is not one.
    const signature = sign(id, nowSeconds(), body);
    const headers = { "webhook-id": id, "webhook-timestamp": "yesterday", "webhook-signature": signature };
    const answer = await post(body, headers);
    const error = await expectError(answer.response, 400, "Invalid Signature Headers");
    expect(error.code).toBe("WEBHOOK_VERIFICATION_FAILED");
    expect(await findEvent(id)).toBeUndefined();
  });

  it("refuses a correctly signed delivery more than 300 s old: 400 Message timestamp too old", async () => {
    const id = randomUUID();
    const answer = await deliver(strangerSubscription(), id, nowSeconds() - 301);
    const error = await expectError(answer.response, 400, "Message timestamp too old");
    expect(error.code).toBe("WEBHOOK_VERIFICATION_FAILED");
    expect(await findEvent(id)).toBeUndefined();
  });

  it("refuses a correctly signed delivery more than 300 s in the future: 400 Message timestamp too new", async () => {
    const id = randomUUID();
    // 400 s ahead, not 301: the margin shrinks while the request is on its way, by seconds on a busy machine.
    const answer = await deliver(strangerSubscription(), id, nowSeconds() + 400);
    const error = await expectError(answer.response, 400, "Message timestamp too new");
    expect(error.code).toBe("WEBHOOK_VERIFICATION_FAILED");
    expect(await findEvent(id)).toBeUndefined();
  });

  it("accepts timestamps within the 300 s tolerance on either side", async () => {
    const past = randomUUID();
    const future = randomUUID();
    expect((await deliver(strangerSubscription(), past, nowSeconds() - 280)).status).toBe(202);
    expect((await deliver(strangerSubscription(), future, nowSeconds() + 280)).status).toBe(202);
    expect(await countEvents([past, future])).toBe(2);
  });

  const forged: Array<
    [string, (id: string, timestamp: number, body: string) => { id: string; signature: string; body: string }]
  > = [
    [
      "signed with another secret",
      (id, ts, body) => ({ id, body, signature: sign(id, ts, body, Buffer.from(`${secret}x`, "utf8")) }),
    ],
    [
      "signed with the Standard Webhooks key (the base64-decoded part after whsec_)",
      (id, ts, body) => ({
        id,
        body,
        signature: sign(id, ts, body, Buffer.from(secret.slice("whsec_".length), "base64")),
      }),
    ],
    [
      "whose body was changed after signing",
      (id, ts, body) => ({ id, signature: sign(id, ts, body), body: body.replace('"active"', '"canceled"') }),
    ],
    [
      "carrying the v1 signature of another webhook-id",
      (id, ts, body) => ({ id, signature: sign(randomUUID(), ts, body), body }),
    ],
    ["whose signature is for another timestamp", (id, ts, body) => ({ id, signature: sign(id, ts - 1, body), body })],
    [
      "whose signature uses another scheme (v1a)",
      (id, ts, body) => ({ id, signature: sign(id, ts, body).replace(/^v1,/, "v1a,"), body }),
    ],
  ];

  it.each(forged)("refuses a delivery %s: 400 No matching signature found", async (_label, forge) => {
    const timestamp = nowSeconds();
    const original = strangerSubscription();
    const { id, signature, body } = forge(randomUUID(), timestamp, original);
    const before = await countEvents();
    const answer = await post(body, {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signature,
    });
    const error = await expectError(answer.response, 400, "No matching signature found");
    expect(error.code).toBe("WEBHOOK_VERIFICATION_FAILED");
    expect(await findEvent(id)).toBeUndefined();
    expect(await countEvents()).toBe(before);
  });

  it("accepts a signature header listing a wrong v1 signature before the right one", async () => {
    const id = randomUUID();
    const timestamp = nowSeconds();
    const body = strangerSubscription();
    const answer = await post(body, {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": `v1,${Buffer.alloc(32).toString("base64")} ${sign(id, timestamp, body)}`,
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ received: true, duplicate: false });
  });

  it.each([
    ["no type", JSON.stringify({ timestamp: new Date().toISOString(), data: {} })],
    ["a numeric type", JSON.stringify({ type: 42, timestamp: new Date().toISOString(), data: {} })],
    ["an empty type", JSON.stringify({ type: "", timestamp: new Date().toISOString(), data: {} })],
    ["a JSON array", JSON.stringify([{ type: "subscription.updated" }])],
    ["no JSON at all", "type=subscription.updated"],
  ])("refuses a correctly signed body with %s: 400 VALIDATION_ERROR Invalid webhook payload", async (_label, body) => {
    const id = randomUUID();
    const before = await countEvents();
    const answer = await deliver(body, id);
    const error = await expectError(answer.response, 400, "Invalid webhook payload");
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(await findEvent(id)).toBeUndefined();
    expect(await countEvents()).toBe(before);
  });
});

// Storing and applying

describe("storing and applying", () => {
  let organization: CreatedOrganization;
  const customerId = `cus_${randomUUID()}`;

  beforeAll(async () => {
    organization = await createOrganizationWithOwner(owner, "Webhooks");
    // The provider announces the organization's customer: from then on its id finds the organization.
    const answer = await deliver(
      envelope("customer.created", customer({ id: customerId, organizationId: organization.id })),
    );
    expect(answer.status).toBe(202);
    await server.services.billingWorker.drain();
  });

  it("applies a subscription event about a known organization and shows it in the organization's billing", async () => {
    const id = randomUUID();
    const subscriptionId = `sub_${randomUUID()}`;
    const body = envelope(
      "subscription.updated",
      subscription({
        id: subscriptionId,
        organizationId: organization.id,
        customerId,
        status: "active",
        modifiedAt: "2025-03-01T09:00:05.000000+00:00",
      }),
    );
    const answer = await deliver(body, id);
    expect(answer.status).toBe(202);
    await server.services.billingWorker.drain();
    expect(await findEvent(id)).toMatchObject({
      status: "applied",
      organization_id: organization.id,
      last_error: null,
    });
    const overview = await overviewOf(organization.id);
    expect(overview.plan).toEqual({ key: "pro", name: "Pro", productId: PRODUCT_ID });
    expect(overview.subscription).toMatchObject({
      id: subscriptionId,
      status: "active",
      amount: 2900,
      currency: "usd",
      cancelAtPeriodEnd: false,
    });
  });

  it("records the customer.created event as applied for the organization", async () => {
    const row = await server.db
      .selectFrom("billing_webhook_event")
      .select(["status", "organization_id"])
      .where("type", "=", "customer.created")
      .where("organization_id", "=", organization.id)
      .executeTakeFirst();
    expect(row).toEqual({ status: "applied", organization_id: organization.id });
    const stored = await server.db
      .selectFrom("billing_customer")
      .select("customer_id")
      .where("organization_id", "=", organization.id)
      .executeTakeFirst();
    expect(stored?.customer_id).toBe(customerId);
  });

  it("answers a redelivery of the same webhook-id 200 duplicate, and neither stores nor applies it again", async () => {
    const other = await createOrganizationWithOwner(owner, "Redelivered");
    const id = randomUUID();
    const subscriptionId = `sub_${randomUUID()}`;
    const first = envelope(
      "subscription.updated",
      subscription({
        id: subscriptionId,
        organizationId: other.id,
        customerId: `cus_${randomUUID()}`,
        status: "active",
        modifiedAt: "2025-03-01T09:00:05.000000+00:00",
      }),
    );
    expect((await deliver(first, id)).status).toBe(202);
    await server.services.billingWorker.drain();
    const applied = await findEvent(id);
    expect(applied?.status).toBe("applied");

    // The same webhook-id again, signed afresh: once as the provider retries (same body), once with a newer
    // payload that would change the status if it were applied.
    const nudge = holdWorker();
    const again = await deliver(first, id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    const changed = envelope(
      "subscription.updated",
      subscription({
        id: subscriptionId,
        organizationId: other.id,
        customerId: `cus_${randomUUID()}`,
        status: "past_due",
        modifiedAt: "2025-03-09T09:00:05.000000+00:00",
      }),
    );
    const changedAnswer = await deliver(changed, id);
    expect(changedAnswer.status).toBe(200);
    expect(changedAnswer.body).toEqual({ received: true, duplicate: true });
    expect(nudge).not.toHaveBeenCalled();
    nudge.mockRestore();

    await server.services.billingWorker.drain();
    expect(await countEvents([id])).toBe(1);
    const after = await findEvent(id);
    expect(after).toMatchObject({ payload: first, status: "applied", attempts: 0 });
    expect(after?.applied_at).toEqual(applied?.applied_at);
    expect((await overviewOf(other.id)).subscription?.status).toBe("active");
  });

  it("ignores an event about a customer Atrium does not know, answering 202", async () => {
    const id = randomUUID();
    const answer = await deliver(strangerSubscription(), id);
    expect(answer.status).toBe(202);
    await server.services.billingWorker.drain();
    expect(await findEvent(id)).toMatchObject({
      status: "ignored",
      organization_id: null,
      last_error: null,
      attempts: 0,
    });
  });

  it.each([
    ["product.updated", () => ({ ...product(), metadata: { plan: "pro", organization_id: organization.id } })],
    [
      "member.created",
      () => ({
        id: `mem_${randomUUID()}`,
        customer_id: customerId,
        email: "member@example.com",
        name: "Member",
        external_id: null,
        role: "member",
      }),
    ],
    [
      "something.new",
      () => ({ id: randomUUID(), customer_id: customerId, customer: { id: customerId, external_id: organization.id } }),
    ],
  ])("accepts and ignores %s about a known organization (a type Atrium does not act on)", async (type, data) => {
    const id = randomUUID();
    const answer = await deliver(envelope(type, data()), id);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ received: true, duplicate: false });
    await server.services.billingWorker.drain();
    expect(await findEvent(id)).toMatchObject({
      type,
      status: "ignored",
      organization_id: organization.id,
      last_error: null,
      attempts: 0,
    });
  });

  // A renewal (subscription.cycled, not in the spec's list) carries the whole subscription with its new period:
  // about a known organization it is stored like any subscription.* event.
  it("accepts subscription.cycled: ignored for an unknown customer, applied for a known organization", async () => {
    const stranger = randomUUID();
    const strangerBody = envelope(
      "subscription.cycled",
      subscription({
        id: `sub_${randomUUID()}`,
        organizationId: randomUUID(),
        customerId: `cus_${randomUUID()}`,
        status: "active",
        modifiedAt: new Date().toISOString(),
      }),
    );
    expect((await deliver(strangerBody, stranger)).status).toBe(202);

    const other = await createOrganizationWithOwner(owner, "Cycled");
    const known = randomUUID();
    const knownBody = envelope(
      "subscription.cycled",
      subscription({
        id: `sub_${randomUUID()}`,
        organizationId: other.id,
        customerId: `cus_${randomUUID()}`,
        status: "active",
        modifiedAt: "2025-04-01T09:00:05.000000+00:00",
      }),
    );
    const answer = await deliver(knownBody, known);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ received: true, duplicate: false });
    await server.services.billingWorker.drain();
    expect(await findEvent(stranger)).toMatchObject({
      type: "subscription.cycled",
      status: "ignored",
      organization_id: null,
      last_error: null,
    });
    expect(await findEvent(known)).toMatchObject({
      type: "subscription.cycled",
      status: "applied",
      organization_id: other.id,
      last_error: null,
      attempts: 0,
    });
  });

  it("ignores product.updated and something.new about nobody in particular", async () => {
    const ids = [randomUUID(), randomUUID()];
    expect((await deliver(envelope("product.updated", product()), ids[0])).status).toBe(202);
    expect((await deliver(envelope("something.new", { hello: "world" }), ids[1])).status).toBe(202);
    await server.services.billingWorker.drain();
    for (const id of ids)
      expect(await findEvent(id)).toMatchObject({ status: "ignored", organization_id: null, last_error: null });
  });
});

// Out of order

describe("events arriving out of order", () => {
  it("keeps the newer subscription when an older subscription.updated arrives after it", async () => {
    const organization = await createOrganizationWithOwner(owner, "Out of order");
    const customerId = `cus_${randomUUID()}`;
    const subscriptionId = `sub_${randomUUID()}`;
    const event = (status: string, modifiedAt: string) =>
      envelope(
        "subscription.updated",
        subscription({ id: subscriptionId, organizationId: organization.id, customerId, status, modifiedAt }),
      );

    const newer = randomUUID();
    expect((await deliver(event("active", "2025-03-05T12:00:00.500000+00:00"), newer)).status).toBe(202);
    await server.services.billingWorker.drain();
    expect((await overviewOf(organization.id)).subscription?.status).toBe("active");

    const older = randomUUID();
    expect((await deliver(event("past_due", "2025-03-05T11:59:59.250000+00:00"), older)).status).toBe(202);
    await server.services.billingWorker.drain();
    expect(await findEvent(older)).toMatchObject({ status: "applied", organization_id: organization.id });
    expect((await overviewOf(organization.id)).subscription?.status).toBe("active");

    // A later change still replaces it: the older one was refused for its age, not because updates are blocked.
    const latest = randomUUID();
    expect((await deliver(event("past_due", "2025-03-06T08:00:00.000000+00:00"), latest)).status).toBe(202);
    await server.services.billingWorker.drain();
    expect((await overviewOf(organization.id)).subscription?.status).toBe("past_due");
  });

  it("keeps the newer customer state when an older customer.state_changed arrives after it", async () => {
    const organization = await createOrganizationWithOwner(owner, "State order");
    const customerId = `cus_${randomUUID()}`;
    const state = (features: string[], timestamp: string) =>
      envelope(
        "customer.state_changed",
        customerState({ id: customerId, organizationId: organization.id, features }),
        timestamp,
      );
    expect((await overviewOf(organization.id)).entitlements.features).toEqual([]);

    expect((await deliver(state(["priority_support", "sso"], "2025-03-05T12:00:00.500000Z"))).status).toBe(202);
    await server.services.billingWorker.drain();
    expect((await overviewOf(organization.id)).entitlements.features).toEqual(["priority_support", "sso"]);

    const older = randomUUID();
    expect((await deliver(state(["basic"], "2025-03-05T11:59:59.250000Z"), older)).status).toBe(202);
    await server.services.billingWorker.drain();
    expect(await findEvent(older)).toMatchObject({ status: "applied", organization_id: organization.id });
    expect((await overviewOf(organization.id)).entitlements.features).toEqual(["priority_support", "sso"]);

    expect((await deliver(state(["audit_log"], "2025-03-05T12:00:01.000000Z"))).status).toBe(202);
    await server.services.billingWorker.drain();
    expect((await overviewOf(organization.id)).entitlements.features).toEqual(["audit_log"]);
  });
});

// Concurrency

describe("concurrent deliveries", () => {
  it("stores 20 simultaneous deliveries of one webhook-id once: one 202, nineteen 200 duplicates", async () => {
    const id = randomUUID();
    const timestamp = nowSeconds();
    const body = strangerSubscription();
    const signature = sign(id, timestamp, body);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(body, { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array<number>(19).fill(200), 202]);
    expect(answers.filter((answer) => answer.status === 202).map((answer) => answer.body)).toEqual([
      { received: true, duplicate: false },
    ]);
    for (const answer of answers.filter((candidate) => candidate.status === 200))
      expect(answer.body).toEqual({ received: true, duplicate: true });
    expect(await countEvents([id])).toBe(1);
    await server.services.billingWorker.drain();
    expect(await findEvent(id)).toMatchObject({ status: "ignored", attempts: 0 });
  });

  it("stores 20 simultaneous distinct deliveries: all 202, none a server error", async () => {
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const answers = await Promise.all(ids.map((id) => deliver(strangerSubscription(), id)));
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 202));
    for (const answer of answers) expect(answer.body).toEqual({ received: true, duplicate: false });
    expect(await countEvents(ids)).toBe(20);
    await server.services.billingWorker.drain();
    const rows = await server.db
      .selectFrom("billing_webhook_event")
      .select(["id", "status"])
      .where("id", "in", ids)
      .execute();
    expect(rows.map((row) => row.status)).toEqual(ids.map(() => "ignored"));
  });
});
