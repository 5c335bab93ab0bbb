import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  waitFor,
  type TestUser,
} from "../../test/factories";
import { expectError, type TestClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "../../test/webhook-receiver";

const ADMIN_REQUIRED = "Only the organization's owners and admins can manage its webhooks";
const NOT_FOUND = "Webhook endpoint not found";
const REFUSED = "This URL points to a private or reserved address: webhooks are sent to public addresses only";
const HOUR = 3_600_000;
/** The schedule the tests step through: the production one (the clock is moved instead of waited for). */
const SCHEDULE = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

describe("outbound webhooks", () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let organization: { id: string };
  /** The worker's clock runs ahead of the real one by this much (never behind: rows are stamped with real time). */
  let offset = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    app = await createTestApp({
      listen: true,
      webhooks: {
        now: () => new Date(Date.now() + offset),
        timeoutMs: 500,
        disableAfterFailingMs: 24 * HOUR,
      },
    });
    owner = await createVerifiedUser(app, { label: "owner" });
    admin = await createVerifiedUser(app, { label: "admin" });
    member = await createVerifiedUser(app, { label: "member" });
    outsider = await createVerifiedUser(app, { label: "outsider" });
    organization = await createOrganizationWithOwner(owner, "Hooks");
    await addMember(owner, organization.id, admin, "admin");
    await addMember(owner, organization.id, member, "member");
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  const base = () => `/api/organizations/${organization.id}/webhooks`;
  const drain = () => app.services.webhookWorker.drain();
  const advance = (ms: number) => {
    offset += ms;
  };
  async function register(client: TestClient, path: string, events: string[], organizationId = organization.id) {
    const response = await client.post(`/api/organizations/${organizationId}/webhooks`, {
      url: receiver.url(path),
      events,
    });
    expect(response.status).toBe(201);
    return response.data as { id: string; secret: string };
  }
  const patch = (client: TestClient, id: string, json: unknown) =>
    client.request(`${base()}/${id}`, { method: "PATCH", json });
  /** A team created (a team.created event) and removed again, so the plan's team limit is never reached. */
  async function createTeam(name: string) {
    const created = await owner.client.post("/api/auth/organization/create-team", {
      name,
      organizationId: organization.id,
    });
    expect(created.status).toBe(200);
    const removed = await owner.client.post("/api/auth/organization/remove-team", {
      teamId: created.data.id,
      organizationId: organization.id,
    });
    expect(removed.status).toBe(200);
  }
  const messages = (endpointId: string) =>
    app.db
      .selectFrom("webhook_message")
      .select(["id", "event_type", "status", "attempts", "payload"])
      .where("endpoint_id", "=", endpointId)
      .orderBy("seq")
      .execute();
  const auditActions = async (action: string) =>
    (
      await app.db
        .selectFrom("audit_event")
        .select(["action", "actor_id", "details"])
        .where("organization_id", "=", organization.id)
        .where("action", "=", action)
        .execute()
    ).length;

  describe("the contract", () => {
    it("registers an endpoint for owners and admins: 201 with its id and a whsec_ secret, audited", async () => {
      const before = await auditActions("organization.webhook_created");
      const response = await owner.client.post(base(), {
        url: receiver.url("/ok"),
        events: ["member.added"],
        description: "CRM sync",
      });
      expect(response.status).toBe(201);
      expect(response.data).toEqual({
        id: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      });
      const byAdmin = await admin.client.post(base(), { url: receiver.url("/ok"), events: ["team.created"] });
      expect(byAdmin.status).toBe(201);
      expect(await auditActions("organization.webhook_created")).toBe(before + 2);
      const read = await owner.client.get(`${base()}/${response.data.id}`);
      expect(read.status).toBe(200);
      expect(read.data).toEqual({
        id: response.data.id,
        url: receiver.url("/ok"),
        description: "CRM sync",
        events: ["member.added"],
        enabled: true,
        disabledReason: null,
        createdAt: expect.any(String),
      });
      expect(JSON.stringify(read.data)).not.toContain("whsec_");
      const secret = await owner.client.get(`${base()}/${response.data.id}/secret`);
      expect(secret.data).toEqual(response.data);
      const list = await admin.client.get(base());
      expect((list.data as Array<{ id: string }>).map((endpoint) => endpoint.id)).toContain(byAdmin.data.id);
    });

    it("refuses members (403) and outsiders (403), and changes nothing", async () => {
      const { id } = await register(owner.client, "/ok", ["member.added"]);
      const count = (await owner.client.get(base())).data.length;
      await expectError(
        await member.client.post(base(), { url: receiver.url("/ok"), events: ["member.added"] }),
        403,
        ADMIN_REQUIRED,
      );
      await expectError(await member.client.get(base()), 403, ADMIN_REQUIRED);
      await expectError(await member.client.get(`${base()}/${id}/secret`), 403, ADMIN_REQUIRED);
      await expectError(await patch(member.client, id, { enabled: false }), 403, ADMIN_REQUIRED);
      await expectError(await member.client.request(`${base()}/${id}`, { method: "DELETE" }), 403, ADMIN_REQUIRED);
      await expectError(await member.client.post(`${base()}/${id}/rotate-secret`), 403, ADMIN_REQUIRED);
      await expectError(await member.client.get(`${base()}/${id}/deliveries`), 403, ADMIN_REQUIRED);
      await expectError(await outsider.client.get(base()), 403, "user is not a member of the organization");
      expect((await owner.client.get(base())).data.length).toBe(count);
      expect((await owner.client.get(`${base()}/${id}`)).data.enabled).toBe(true);
    });

    it("validates bodies with readable messages", async () => {
      await expectError(
        await owner.client.post(base(), { url: "ftp://example.com", events: ["member.added"] }),
        400,
        "url: Enter an http or https URL",
      );
      await expectError(
        await owner.client.post(base(), { url: receiver.url("/ok"), events: [] }),
        400,
        "events: Choose at least one event",
      );
      const unknown = await owner.client.post(base(), { url: receiver.url("/ok"), events: ["member.exploded"] });
      expect(unknown.status).toBe(400);
      expect(unknown.data.code).toBe("VALIDATION_ERROR");
      const { id } = await register(owner.client, "/ok", ["member.added"]);
      await expectError(await patch(owner.client, id, {}), 400, "Send url, events or enabled");
    });

    it("refuses link-local and cloud metadata addresses, whatever the deployment (400)", async () => {
      for (const url of [
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/hook",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://[::ffff:169.254.169.254]/",
        "http://100.100.100.200/",
      ]) {
        const body = await expectError(
          await owner.client.post(base(), { url, events: ["member.added"] }),
          400,
          REFUSED,
        );
        expect(body.code).toBe("WEBHOOK_URL_REFUSED");
      }
      const { id } = await register(owner.client, "/ok", ["member.added"]);
      await expectError(await patch(owner.client, id, { url: "http://169.254.169.254/" }), 400, REFUSED);
    });

    it("updates url, events and enabled, audited with what changed; the same values change nothing", async () => {
      const { id } = await register(owner.client, "/ok", ["member.added"]);
      const before = await auditActions("organization.webhook_updated");
      const updated = await patch(admin.client, id, { events: ["team.created", "team.deleted"], enabled: false });
      expect(updated.status).toBe(200);
      expect(updated.data).toMatchObject({ id, events: ["team.created", "team.deleted"], enabled: false });
      expect(await auditActions("organization.webhook_updated")).toBe(before + 1);
      const same = await patch(admin.client, id, { events: ["team.created", "team.deleted"], enabled: false });
      expect(same.status).toBe(200);
      expect(await auditActions("organization.webhook_updated")).toBe(before + 1);
      const moved = await patch(owner.client, id, { url: receiver.url("/ok?moved=1"), enabled: true });
      expect(moved.data).toMatchObject({ url: receiver.url("/ok?moved=1"), enabled: true });
    });

    it("deletes an endpoint (204, audited); another organization's endpoint is not found (404)", async () => {
      const { id } = await register(owner.client, "/ok", ["member.added"]);
      const other = await createOrganizationWithOwner(outsider, "Elsewhere");
      const foreign = await register(outsider.client, "/ok", ["member.added"], other.id);
      await expectError(await owner.client.get(`${base()}/${foreign.id}`), 404, NOT_FOUND);
      await expectError(await owner.client.request(`${base()}/${foreign.id}`, { method: "DELETE" }), 404, NOT_FOUND);
      await expectError(await owner.client.post(`${base()}/${foreign.id}/rotate-secret`), 404, NOT_FOUND);
      const before = await auditActions("organization.webhook_deleted");
      const deleted = await owner.client.request(`${base()}/${id}`, { method: "DELETE" });
      expect(deleted.status).toBe(204);
      expect(await auditActions("organization.webhook_deleted")).toBe(before + 1);
      await expectError(await owner.client.get(`${base()}/${id}`), 404, NOT_FOUND);
      await expectError(await owner.client.request(`${base()}/${id}`, { method: "DELETE" }), 404, NOT_FOUND);
    });
  });

  describe("events and delivery", () => {
    it("queues organization changes in their transaction and delivers them in order, signed per Standard Webhooks", async () => {
      const endpoint = await register(owner.client, "/ok?events=members", [
        "member.added",
        "member.removed",
        "member.role_changed",
        "invitation.created",
        "invitation.accepted",
        "team.created",
        "team.deleted",
      ]);
      const joiner = await createVerifiedUser(app, { label: "joiner" });
      const memberId = await addMember(owner, organization.id, joiner, "member");
      const promoted = await owner.client.post("/api/auth/organization/update-member-role", {
        memberId,
        role: "admin",
        organizationId: organization.id,
      });
      expect(promoted.status).toBe(200);
      // The same role again changes nothing: no event.
      await owner.client.post("/api/auth/organization/update-member-role", {
        memberId,
        role: "admin",
        organizationId: organization.id,
      });
      await createTeam("Webhook team");
      const removed = await owner.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: memberId,
        organizationId: organization.id,
      });
      expect(removed.status).toBe(200);
      const expected = [
        "invitation.created",
        "invitation.accepted",
        "member.added",
        "member.role_changed",
        "team.created",
        "team.deleted",
        "member.removed",
      ];
      expect((await messages(endpoint.id)).map((message) => message.event_type)).toEqual(expected);

      await drain();
      const received = receiver.at("/ok?events=members");
      expect(received.map((request) => verifyWebhook(endpoint.secret, request).type)).toEqual(expected);
      const first = received[0]!;
      expect(first.headers["webhook-id"]).toMatch(/^msg_/);
      expect(first.headers["webhook-timestamp"]).toMatch(/^\d+$/);
      expect(first.headers["webhook-signature"]).toMatch(/^v1,/);
      const added = verifyWebhook(endpoint.secret, received[2]!);
      expect(added).toEqual({
        type: "member.added",
        timestamp: expect.any(String),
        data: expect.objectContaining({
          organizationId: organization.id,
          target: { type: "user", id: joiner.id, label: joiner.email },
          memberId,
          role: "member",
        }),
      });
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(24).toString("base64")}`).verify(first.body, first.headers),
      ).toThrow();
      expect((await messages(endpoint.id)).every((message) => message.status === "delivered")).toBe(true);
      const log = await owner.client.get(`${base()}/${endpoint.id}/deliveries`);
      expect(log.status).toBe(200);
      expect(log.data).toHaveLength(expected.length);
      expect(log.data[0]).toMatchObject({
        statusCode: 200,
        responseExcerpt: '{"ok":true}',
        error: null,
        attempt: 1,
        deliveryStatus: "delivered",
      });
      expect(log.data[0].durationMs).toBeGreaterThanOrEqual(0);
    });

    it("sends no event to disabled endpoints or endpoints not subscribed to it", async () => {
      const off = await register(owner.client, "/ok?off", ["team.created"]);
      await patch(owner.client, off.id, { enabled: false });
      const other = await register(owner.client, "/ok?other", ["member.added"]);
      await createTeam("Quiet team");
      expect(await messages(off.id)).toEqual([]);
      expect(await messages(other.id)).toEqual([]);
    });

    it("retries a failing endpoint on the schedule, in order, then gives up and turns it off after a day of failures", async () => {
      const endpoint = await register(owner.client, "/fail", ["team.created"]);
      await createTeam("Retry one");
      await createTeam("Retry two");
      await drain();
      expect(receiver.at("/fail")).toHaveLength(1);
      for (const [index, delay] of SCHEDULE.entries()) {
        // Not a moment before its time.
        advance(delay - 1_000);
        await drain();
        expect(receiver.at("/fail")).toHaveLength(index + 1);
        advance(1_000);
        await drain();
        expect(receiver.at("/fail")).toHaveLength(index + 2);
      }
      // Eight attempts of the first message only: the second waited its turn. The first is given up, and 27 h of
      // failures (more than the 24 h this app allows) turned the endpoint off and mailed the owner.
      const [first, second] = await messages(endpoint.id);
      expect(first).toMatchObject({ status: "failed", attempts: 8 });
      expect(second).toMatchObject({ status: "pending", attempts: 0 });
      expect(new Set(receiver.at("/fail").map((request) => request.headers["webhook-id"]))).toEqual(
        new Set([first!.id]),
      );
      const read = await owner.client.get(`${base()}/${endpoint.id}`);
      expect(read.data).toMatchObject({ enabled: false, disabledReason: "failing" });
      const mail = await app.db
        .selectFrom("mail_outbox")
        .select(["to_address", "subject"])
        .where("to_address", "=", owner.email)
        .where("subject", "like", "A webhook endpoint%")
        .execute();
      expect(mail).toHaveLength(1);
      const log = (await owner.client.get(`${base()}/${endpoint.id}/deliveries`)).data;
      expect(log[0]).toMatchObject({
        statusCode: 500,
        responseExcerpt: "receiver broke: database down",
        attempt: 8,
        deliveryStatus: "failed",
      });
    });

    it("turns an endpoint off at once when it answers 410, and mails the owners", async () => {
      const endpoint = await register(owner.client, "/gone", ["team.created"]);
      await createTeam("Gone team");
      await drain();
      expect(receiver.at("/gone")).toHaveLength(1);
      expect((await owner.client.get(`${base()}/${endpoint.id}`)).data).toMatchObject({
        enabled: false,
        disabledReason: "gone",
      });
      expect((await messages(endpoint.id))[0]).toMatchObject({ status: "failed", attempts: 1 });
      // Turned back on, it is no longer marked.
      const enabled = await patch(owner.client, endpoint.id, { enabled: true });
      expect(enabled.data).toMatchObject({ enabled: true, disabledReason: null });
    });

    it("abandons a delivery that hangs at the timeout and retries it; follows no redirect", async () => {
      const hanging = await register(owner.client, "/hang", ["team.created"]);
      const redirecting = await register(owner.client, "/redirect", ["team.created"]);
      await createTeam("Hang team");
      await drain();
      const hangLog = (await owner.client.get(`${base()}/${hanging.id}/deliveries`)).data;
      expect(hangLog[0]).toMatchObject({ statusCode: null, error: "timed out after 0.5 s", deliveryStatus: "pending" });
      const redirectLog = (await owner.client.get(`${base()}/${redirecting.id}/deliveries`)).data;
      expect(redirectLog[0]).toMatchObject({ statusCode: 302, deliveryStatus: "pending" });
      expect(receiver.at("/ok?redirected")).toHaveLength(0);
      await owner.client.request(`${base()}/${hanging.id}`, { method: "DELETE" });
      await owner.client.request(`${base()}/${redirecting.id}`, { method: "DELETE" });
    });

    it("signs with the old secret next to the new one for 24 hours after a rotation", async () => {
      const endpoint = await register(owner.client, "/ok?rotation", ["team.created"]);
      const before = await auditActions("organization.webhook_secret_rotated");
      const rotated = await owner.client.post(`${base()}/${endpoint.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.data).toEqual({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
      expect(rotated.data.secret).not.toBe(endpoint.secret);
      expect(await auditActions("organization.webhook_secret_rotated")).toBe(before + 1);
      await createTeam("Rotation one");
      await drain();
      const [during] = receiver.at("/ok?rotation");
      expect(during!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      expect(verifyWebhook(endpoint.secret, during!).type).toBe("team.created");
      expect(verifyWebhook(rotated.data.secret, during!).type).toBe("team.created");
      // A day later (the rotated secret's day runs on the real clock, which signatures carry).
      await app.db
        .updateTable("webhook_endpoint")
        .set({ previous_secret_expires_at: new Date(Date.now() - 1_000).toISOString() })
        .where("id", "=", endpoint.id)
        .execute();
      await createTeam("Rotation two");
      await drain();
      const after = receiver.at("/ok?rotation")[1]!;
      expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
      expect(verifyWebhook(rotated.data.secret, after).type).toBe("team.created");
      expect(() => verifyWebhook(endpoint.secret, after)).toThrow();
    });

    it("sends a test event and redelivers a delivery with the same webhook-id; unknown deliveries are 404", async () => {
      const endpoint = await register(owner.client, "/ok?test", ["member.added"]);
      const test = await admin.client.post(`${base()}/${endpoint.id}/test`);
      expect(test.status).toBe(202);
      await drain();
      const [sent] = receiver.at("/ok?test");
      expect(verifyWebhook(endpoint.secret, sent!)).toMatchObject({
        type: "webhook.test",
        data: { webhookId: endpoint.id },
      });
      expect(sent!.headers["webhook-id"]).toBe(test.data.deliveryId);
      const redelivered = await owner.client.post(
        `${base()}/${endpoint.id}/deliveries/${test.data.deliveryId}/redeliver`,
      );
      expect(redelivered.status).toBe(202);
      await drain();
      const again = receiver.at("/ok?test")[1]!;
      expect(again.headers["webhook-id"]).toBe(test.data.deliveryId);
      expect(again.body).toBe(sent!.body);
      await expectError(
        await owner.client.post(`${base()}/${endpoint.id}/deliveries/msg_unknown/redeliver`),
        404,
        "Webhook delivery not found",
      );
      await expectError(await member.client.post(`${base()}/${endpoint.id}/test`), 403, ADMIN_REQUIRED);
    });

    it("queues subscription.updated when the stored subscriptions change, and not for a state that changes none", async () => {
      const endpoint = await register(owner.client, "/ok?billing", ["subscription.updated"]);
      const subscription = {
        id: "sub_1",
        status: "active",
        product_id: "prod_team",
        amount: 1_000,
        currency: "usd",
        recurring_interval: "month",
        current_period_end: "2027-01-01T00:00:00Z",
        cancel_at_period_end: false,
        ends_at: null,
      };
      const state = (subscriptions: unknown[]) => ({ id: "cus_1", active_subscriptions: subscriptions }) as never;
      await app.services.billing.storeState(organization.id, state([subscription]), undefined);
      await app.services.billing.storeState(organization.id, state([subscription]), undefined);
      await app.services.billing.storeState(
        organization.id,
        state([{ ...subscription, cancel_at_period_end: true }]),
        undefined,
      );
      await drain();
      const bodies = receiver.at("/ok?billing").map((request) => verifyWebhook(endpoint.secret, request));
      expect(
        bodies.map((body) => (body.data.subscriptions as Array<{ cancelAtPeriodEnd: boolean }>)[0]!.cancelAtPeriodEnd),
      ).toEqual([false, true]);
      expect(bodies[0]!.type).toBe("subscription.updated");
    });

    it("the development receiver records what it is sent and checks the signature", async () => {
      const url = `${app.config.baseUrl}/dev/webhooks`;
      const created = await owner.client.post(base(), { url, events: ["team.created"] });
      expect(created.status).toBe(201);
      await createTeam("Dev receiver");
      await drain();
      const receipts = await owner.client.get("/dev/webhooks/receipts");
      expect(receipts.data[0]).toMatchObject({
        verified: true,
        headers: { "webhook-signature": expect.stringMatching(/^v1,/) },
      });
      expect(JSON.parse(receipts.data[0].body)).toMatchObject({ type: "team.created" });
      const page = await owner.client.get("/dev/webhooks");
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Signature verified");
    });
  });

  it("delivers each message once and in order when two instances' workers race for them", async () => {
    const second = await createTestApp({
      database: app.database,
      webhooks: { now: () => new Date(Date.now() + offset) },
    });
    try {
      const endpoint = await register(owner.client, "/ok?race", ["member.added"]);
      const ids: string[] = [];
      for (let index = 0; index < 12; index += 1)
        ids.push((await owner.client.post(`${base()}/${endpoint.id}/test`)).data.deliveryId);
      await Promise.all([
        drain(),
        second.services.webhookWorker.drain(),
        drain(),
        second.services.webhookWorker.drain(),
      ]);
      await waitFor(async () => (await messages(endpoint.id)).every((message) => message.status === "delivered"), {
        what: "every message delivered",
      });
      expect(receiver.at("/ok?race").map((request) => request.headers["webhook-id"])).toEqual(ids);
      const attempts = await app.db
        .selectFrom("webhook_attempt")
        .select("message_id")
        .where("endpoint_id", "=", endpoint.id)
        .execute();
      expect(attempts).toHaveLength(ids.length);
    } finally {
      await second.close();
    }
  });

  describe("where webhooks may be sent, in production", () => {
    let strict: TestApp;
    let strictOwner: TestUser;
    let strictOrganization: { id: string };

    beforeAll(async () => {
      strict = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "false" } });
      strictOwner = await createVerifiedUser(strict, { label: "strict" });
      strictOrganization = await createOrganizationWithOwner(strictOwner, "Strict");
    });
    afterAll(async () => {
      await strict.close();
    });

    it("refuses private, loopback and unresolvable targets at registration (400)", async () => {
      const path = `/api/organizations/${strictOrganization.id}/webhooks`;
      for (const url of [
        "http://127.0.0.1:8080/",
        "http://10.1.2.3/",
        "http://192.168.0.10/",
        "http://[::1]/",
        "http://localhost/",
      ]) {
        await expectError(await strictOwner.client.post(path, { url, events: ["team.created"] }), 400, REFUSED);
      }
      const unresolvable = await strictOwner.client.post(path, {
        url: "http://no-such-host.invalid/",
        events: ["team.created"],
      });
      await expectError(unresolvable, 400, "The URL's host name could not be resolved: check it and try again");
    });

    it("checks the resolved address at every delivery: a name that now resolves to loopback is not connected to", async () => {
      // As if `localhost` had resolved to a public address at registration and to 127.0.0.1 since (DNS rebinding).
      const now = new Date().toISOString();
      for (const [id, url] of [
        ["wh_rebind_name", `http://localhost:${receiver.port}/ok?rebind`],
        ["wh_rebind_ip", receiver.url("/ok?rebind")],
      ]) {
        await strict.db
          .insertInto("webhook_endpoint")
          .values({
            id: id!,
            organization_id: strictOrganization.id,
            url: url!,
            description: null,
            events: JSON.stringify(["team.created"]),
            enabled: 1,
            secret: `whsec_${Buffer.alloc(24, 1).toString("base64")}`,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      await strictOwner.client.post("/api/auth/organization/create-team", {
        name: "Rebinding",
        organizationId: strictOrganization.id,
      });
      await strict.services.webhookWorker.drain();
      expect(receiver.at("/ok?rebind")).toHaveLength(0);
      for (const id of ["wh_rebind_name", "wh_rebind_ip"]) {
        const log = (
          await strictOwner.client.get(`/api/organizations/${strictOrganization.id}/webhooks/${id}/deliveries`)
        ).data;
        expect(log[0]).toMatchObject({
          statusCode: null,
          error: expect.stringMatching(/^refused to connect to (127\.0\.0\.1|::1)/),
        });
      }
    });
  });
});
