import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient } from "../../test/request";
import {
  createTestApp,
  createTestDatabase,
  isPostgresRun,
  type TestApp,
  type TestDatabase,
} from "../../test/test-database";
import { purgeDevWebhookReceipts, purgeWebhookHistory } from "./index";
import { deleteFinishedMessagesBefore, requeueMessage } from "./webhooks.repository";

/**
 * The delivery history's retention (docs/webhooks.md): messages delivered or given up before the retention period
 * go with their attempts, in bounded batches; recent ones and those still to deliver stay. The development receiver's
 * receipts go after the same period. Rows are stamped relative to a fixed `now` that every call is given, and the
 * scheduled job runs on the clock the app is given: no waiting.
 */

const DAY = 86_400_000;
const MINUTE = 60_000;

type Status = "pending" | "delivering" | "delivered" | "failed";

describe("webhook delivery history retention", () => {
  let database: TestDatabase;
  let app: TestApp;
  let owner: TestUser;
  let organization: { id: string };
  let endpointId: string;
  /** Every statement the app (and the test, on its database) issued since the test began. */
  let statements: string[] = [];
  const now = new Date();

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    app = await createTestApp({ database, onQuery: (sql) => statements.push(sql) });
    owner = await createVerifiedUser(app, { label: "owner" });
    organization = await createOrganizationWithOwner(owner, "Retention");
    const created = await owner.client.post(`/api/organizations/${organization.id}/webhooks`, {
      url: "http://127.0.0.1:9/hooks",
      events: ["member.added"],
    });
    expect(created.status).toBe(201);
    endpointId = (created.data as { id: string }).id;
    // Off, so the worker leaves the pending messages the tests arrange where they are.
    const off = await owner.client.request(`/api/organizations/${organization.id}/webhooks/${endpointId}`, {
      method: "PATCH",
      json: { enabled: false },
    });
    expect(off.status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    // The purge the app ran at its start is over before anything is arranged.
    await app.services.webhookRetention.drain();
    await app.db.deleteFrom("webhook_message").execute();
    await app.db.deleteFrom("dev_webhook_receipt").execute();
    statements = [];
  });

  const ago = (ms: number, from = now) => new Date(from.getTime() - ms).toISOString();

  /** A message created `createdAgo` before `now`, finished `finishedAgo` before it (null: not finished). */
  async function arrange(
    id: string,
    status: Status,
    ages: { createdAgo: number; finishedAgo: number | null },
    attempts: number,
  ): Promise<void> {
    await app.db
      .insertInto("webhook_message")
      .values({
        id,
        endpoint_id: endpointId,
        event_type: "member.added",
        payload: JSON.stringify({ type: "member.added", timestamp: ago(ages.createdAgo), data: {} }),
        status,
        attempts,
        next_attempt_at: ago(ages.createdAgo),
        created_at: ago(ages.createdAgo),
        finished_at: ages.finishedAgo === null ? null : ago(ages.finishedAgo),
      })
      .execute();
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await app.db
        .insertInto("webhook_attempt")
        .values({
          id: `${id}-attempt-${attempt}`,
          message_id: id,
          endpoint_id: endpointId,
          attempt,
          attempted_at: ago(ages.createdAgo - attempt * MINUTE),
          status_code: status === "delivered" && attempt === attempts ? 200 : 500,
          duration_ms: 12,
          response_excerpt: "ok",
          error: null,
        })
        .execute();
    }
  }
  const messageIds = async () =>
    (await app.db.selectFrom("webhook_message").select("id").orderBy("id").execute()).map((row) => row.id);
  const attemptsByMessage = async () => {
    const rows = await app.db.selectFrom("webhook_attempt").select("message_id").execute();
    const counts: Record<string, number> = {};
    for (const row of rows) counts[row.message_id] = (counts[row.message_id] ?? 0) + 1;
    return counts;
  };
  const purgeStatements = () => statements.filter((sql) => /^delete from "webhook_message"/i.test(sql));
  const receiptPurgeStatements = () => statements.filter((sql) => /^delete from "dev_webhook_receipt"/i.test(sql));

  /** What the development receiver kept, received `receivedAgo` before `now`. */
  async function arrangeReceipt(id: string, receivedAgo: number): Promise<void> {
    await app.db
      .insertInto("dev_webhook_receipt")
      .values({
        id,
        received_at: ago(receivedAgo),
        headers: JSON.stringify({ "webhook-id": `msg_${id}` }),
        body: JSON.stringify({ type: "webhook.test", timestamp: ago(receivedAgo), data: {} }),
        verified: app.database.dialect === "sqlite" ? 1 : true,
      })
      .execute();
  }
  const receiptIds = async () =>
    (await app.db.selectFrom("dev_webhook_receipt").select("id").orderBy("id").execute()).map((row) => row.id);

  it("deletes finished messages past the retention, attempts included; newer and unfinished ones stay", async () => {
    await arrange("msg_delivered_old", "delivered", { createdAgo: 31 * DAY, finishedAgo: 31 * DAY - MINUTE }, 1);
    await arrange("msg_failed_old", "failed", { createdAgo: 42 * DAY, finishedAgo: 40 * DAY }, 8);
    await arrange("msg_delivered_just_under", "delivered", { createdAgo: 30 * DAY, finishedAgo: 30 * DAY - MINUTE }, 2);
    await arrange("msg_failed_recent", "failed", { createdAgo: 2 * DAY, finishedAgo: 60 * MINUTE }, 8);
    // Still to deliver, however old: waiting for its endpoint to be turned on again, and one being delivered.
    await arrange("msg_pending_old", "pending", { createdAgo: 90 * DAY, finishedAgo: null }, 3);
    await arrange("msg_delivering_old", "delivering", { createdAgo: 60 * DAY, finishedAgo: null }, 1);

    expect(await purgeWebhookHistory(app.db, { retentionDays: 30, now })).toBe(2);
    expect(await messageIds()).toEqual([
      "msg_delivered_just_under",
      "msg_delivering_old",
      "msg_failed_recent",
      "msg_pending_old",
    ]);
    expect(await attemptsByMessage()).toEqual({
      msg_delivered_just_under: 2,
      msg_delivering_old: 1,
      msg_failed_recent: 8,
      msg_pending_old: 3,
    });
    // The delivery log shows what is left.
    const log = await owner.client.get(`/api/organizations/${organization.id}/webhooks/${endpointId}/deliveries`);
    expect(log.status).toBe(200);
    expect(new Set((log.data as Array<{ deliveryId: string }>).map((attempt) => attempt.deliveryId))).toEqual(
      new Set(["msg_delivered_just_under", "msg_delivering_old", "msg_failed_recent", "msg_pending_old"]),
    );
    expect(await purgeWebhookHistory(app.db, { retentionDays: 30, now })).toBe(0);
  });

  it("deletes at most a batch of messages per statement, batch after batch until one comes back short", async () => {
    for (const index of [1, 2, 3, 4, 5])
      await arrange(`msg_old_${index}`, "failed", { createdAgo: 50 * DAY, finishedAgo: 45 * DAY + index }, 2);
    await arrange("msg_recent", "delivered", { createdAgo: DAY, finishedAgo: DAY }, 1);

    // One batch: two of the five old messages, with their attempts, and nothing else.
    expect(await deleteFinishedMessagesBefore(app.db, new Date(now.getTime() - 30 * DAY), 2)).toBe(2);
    expect((await messageIds()).filter((id) => id.startsWith("msg_old_"))).toHaveLength(3);
    expect(Object.values(await attemptsByMessage()).sort()).toEqual([1, 2, 2, 2]);

    statements = [];
    expect(await purgeWebhookHistory(app.db, { retentionDays: 30, now, batchSize: 2 })).toBe(3);
    // Two then one: the short batch ends the run.
    expect(purgeStatements()).toHaveLength(2);
    expect(await messageIds()).toEqual(["msg_recent"]);
    expect(await attemptsByMessage()).toEqual({ msg_recent: 1 });
  });

  it("stops after the batch under way when the run is asked to stop", async () => {
    for (const index of [1, 2, 3, 4, 5])
      await arrange(`msg_old_${index}`, "delivered", { createdAgo: 50 * DAY, finishedAgo: 45 * DAY }, 1);
    const stopping = new AbortController();
    stopping.abort();
    expect(await purgeWebhookHistory(app.db, { retentionDays: 30, now, batchSize: 2, stopping: stopping.signal })).toBe(
      2,
    );
    expect(purgeStatements()).toHaveLength(1);
    expect(await messageIds()).toHaveLength(3);
  });

  it("deletes the dev receiver's receipts past the retention, a batch a statement; newer ones stay", async () => {
    await arrangeReceipt("receipt_40_days", 40 * DAY);
    await arrangeReceipt("receipt_31_days", 31 * DAY);
    await arrangeReceipt("receipt_30_days_less_a_minute", 30 * DAY - MINUTE);
    await arrangeReceipt("receipt_an_hour", 60 * MINUTE);
    // The delivery history is another table: a finished message as old stays, it is not this purge's.
    await arrange("msg_delivered_old", "delivered", { createdAgo: 41 * DAY, finishedAgo: 41 * DAY }, 1);

    expect(await purgeDevWebhookReceipts(app.db, { retentionDays: 30, now, batchSize: 1 })).toBe(2);
    // One, one, then none: the short batch ends the run.
    expect(receiptPurgeStatements()).toHaveLength(3);
    expect(await receiptIds()).toEqual(["receipt_30_days_less_a_minute", "receipt_an_hour"]);
    expect(await messageIds()).toEqual(["msg_delivered_old"]);
    // The receiver's page and its list show what is left, newest first.
    const listed = await createClient(app).get("/dev/webhooks/receipts");
    expect(listed.status).toBe(200);
    expect((listed.data as Array<{ id: string }>).map((receipt) => receipt.id)).toEqual([
      "receipt_an_hour",
      "receipt_30_days_less_a_minute",
    ]);
    expect(await purgeDevWebhookReceipts(app.db, { retentionDays: 30, now })).toBe(0);
  });

  it("stops the receipts' purge after the batch under way when the run is asked to stop", async () => {
    for (const index of [1, 2, 3]) await arrangeReceipt(`receipt_old_${index}`, 45 * DAY);
    const stopping = new AbortController();
    stopping.abort();
    const options = { retentionDays: 30, now, batchSize: 2, stopping: stopping.signal };
    expect(await purgeDevWebhookReceipts(app.db, options)).toBe(2);
    expect(receiptPurgeStatements()).toHaveLength(1);
    expect(await receiptIds()).toHaveLength(1);
  });

  // PostgreSQL: a redelivery holds the message's row, requeued but not committed, while a purge that chose the message
  // waits for it. The purge re-checks the row once the redelivery commits and leaves it: it is to be delivered again.
  if (isPostgresRun()) {
    it("a message redelivered while the purge is deleting it stays, with its attempts", async () => {
      await arrange("msg_redelivered", "delivered", { createdAgo: 40 * DAY, finishedAgo: 40 * DAY }, 2);
      const waiting = async () => {
        const row = await sql<{ count: string }>`select count(*) as count from pg_stat_activity
          where wait_event_type = 'Lock' and datname = current_database()`.execute(app.db);
        return Number(row.rows[0]?.count ?? 0);
      };
      await app.db.connection().execute(async (side) => {
        await sql`begin`.execute(side);
        await requeueMessage(side, "msg_redelivered", new Date());
        const purging = purgeWebhookHistory(app.db, { retentionDays: 30, now });
        // Generous: on a busy machine the purge can take seconds to reach the lock; it is awaited, not slept.
        await expect.poll(waiting, { timeout: 20_000 }).toBe(1);
        await sql`commit`.execute(side);
        expect(await purging).toBe(0);
      });
      expect(await app.db.selectFrom("webhook_message").select(["id", "status", "finished_at"]).execute()).toEqual([
        { id: "msg_redelivered", status: "pending", finished_at: null },
      ]);
      expect(await attemptsByMessage()).toEqual({ msg_redelivered: 2 });
    });
  }

  it("runs hourly in one instance, on the webhook clock, with WEBHOOK_RETENTION_DAYS; /api/meta tells it", async () => {
    // From here only the second instance's loop runs, so each run below is its own and none is the first app's poll.
    await app.services.webhookRetention.stop();
    let clock = now;
    const second = await createTestApp({
      database,
      env: { WEBHOOK_RETENTION_DAYS: "7" },
      webhooks: { now: () => clock },
    });
    try {
      expect((await createClient(app).get("/api/meta")).data.webhooks).toEqual({ deliveryRetentionDays: 30 });
      expect((await createClient(second).get("/api/meta")).data.webhooks).toEqual({ deliveryRetentionDays: 7 });
      // The development receiver's page says how long it keeps what it receives.
      expect(await (await createClient(second).get("/dev/webhooks")).text()).toMatch(
        /What it received goes after\s+7 days \(<code>WEBHOOK_RETENTION_DAYS<\/code>\)/,
      );

      await arrange("msg_eight_days", "delivered", { createdAgo: 8 * DAY, finishedAgo: 8 * DAY }, 1);
      await arrange("msg_six_days", "failed", { createdAgo: 6 * DAY, finishedAgo: 6 * DAY }, 8);
      await arrangeReceipt("receipt_eight_days", 8 * DAY);
      await arrangeReceipt("receipt_six_days", 6 * DAY);
      // The first app ran the purge at its start: within the hour it is not due, for this instance or any other.
      await second.services.webhookRetention.drain();
      expect(await messageIds()).toEqual(["msg_eight_days", "msg_six_days"]);
      expect(await receiptIds()).toEqual(["receipt_eight_days", "receipt_six_days"]);

      const makeDue = () =>
        second.db
          .updateTable("job_schedule")
          .set({ next_run_at: new Date().toISOString() })
          .where("name", "=", "webhook history purge")
          .execute();
      await makeDue();
      await second.services.webhookRetention.drain();
      expect(await messageIds()).toEqual(["msg_six_days"]);
      expect(await receiptIds()).toEqual(["receipt_six_days"]);

      // Two days later on the webhook clock, at the next run, the other message is past the seven days too.
      clock = new Date(now.getTime() + 2 * DAY);
      await second.services.webhookRetention.drain();
      expect(await messageIds()).toEqual(["msg_six_days"]);
      expect(await receiptIds()).toEqual(["receipt_six_days"]);
      await makeDue();
      await second.services.webhookRetention.drain();
      expect(await messageIds()).toEqual([]);
      expect(await attemptsByMessage()).toEqual({});
      expect(await receiptIds()).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
