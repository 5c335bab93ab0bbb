import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import type { BillingScope } from "./billing.repository";

/** The queues of the billing module: the webhook inbox and the usage outbox, which the billing worker drains. */

// The webhook inbox

/** Stores a verified delivery; false when its webhook-id was stored before (a redelivery). */
export async function insertWebhookEvent(
  db: Kysely<Database>,
  event: { id: string; type: string; payload: string },
): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await db
    .insertInto("billing_webhook_event")
    .values({
      id: event.id,
      type: event.type,
      payload: event.payload,
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
      received_at: now,
    })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findDueWebhookEvents(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom("billing_webhook_event")
    .select(["id", "type", "payload", "attempts"])
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", new Date().toISOString())
    .orderBy("received_at")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Marks a pending delivery handled; false when it is not pending any more (another instance handled it). Run first
 * in the transaction that applies the delivery: the row stays locked until that transaction ends, so a second
 * applier waits here and then changes nothing, and a rolled-back application leaves the delivery pending.
 */
export async function markWebhookHandled(
  db: Kysely<Database>,
  id: string,
  outcome: { status: "applied" | "ignored"; organizationId: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable("billing_webhook_event")
    .set({
      status: outcome.status,
      organization_id: outcome.organizationId,
      applied_at: new Date().toISOString(),
      last_error: null,
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records a failed application of a delivery still pending: retried at `retryAt`, or given up (`failed`). */
export async function markWebhookRetry(
  db: Kysely<Database>,
  id: string,
  outcome: { status: "pending" | "failed"; error: string; attempts: number; retryAt: Date },
): Promise<void> {
  await db
    .updateTable("billing_webhook_event")
    .set({
      status: outcome.status,
      last_error: outcome.error,
      attempts: outcome.attempts,
      next_attempt_at: outcome.retryAt.toISOString(),
    })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

/** Deletes handled deliveries and sent usage older than `before`; failed and pending rows stay for a look. */
export async function purgeHandledBefore(
  db: Kysely<Database>,
  before: Date,
): Promise<{ webhooks: number; usage: number }> {
  const cutoff = before.toISOString();
  const webhooks = await db
    .deleteFrom("billing_webhook_event")
    .where("status", "in", ["applied", "ignored"])
    .where("received_at", "<", cutoff)
    .executeTakeFirst();
  const usage = await db
    .deleteFrom("billing_usage_event")
    .where("status", "=", "sent")
    .where("sent_at", "<", cutoff)
    .executeTakeFirst();
  return { webhooks: Number(webhooks.numDeletedRows), usage: Number(usage.numDeletedRows) };
}

// The usage outbox

/** Queues a usage record; a repeated idempotency key returns the first record instead. */
export async function insertUsageEvent(
  db: Kysely<Database>,
  scope: BillingScope,
  usage: { key: string | undefined; eventName: string; quantity: number },
): Promise<{ id: string; duplicate: boolean }> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const key = usage.key ?? id;
  const result = await db
    .insertInto("billing_usage_event")
    .values({
      id,
      organization_id: scope.organizationId,
      idempotency_key: key,
      event_name: usage.eventName,
      quantity: usage.quantity,
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    })
    .onConflict((conflict) => conflict.columns(["organization_id", "idempotency_key"]).doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return { id, duplicate: false };
  const existing = await db
    .selectFrom("billing_usage_event")
    .select("id")
    .where("organization_id", "=", scope.organizationId)
    .where("idempotency_key", "=", key)
    .executeTakeFirstOrThrow();
  return { id: existing.id, duplicate: true };
}

export async function findDueUsageEvents(db: Kysely<Database>, limit: number) {
  return db
    .selectFrom("billing_usage_event")
    .select(["id", "organization_id", "idempotency_key", "event_name", "quantity", "attempts", "created_at"])
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", new Date().toISOString())
    .orderBy("created_at")
    .limit(limit)
    .execute();
}

/**
 * Claims due usage records for one send: their next attempt moves to `leaseUntil`, where they are not due to
 * anyone else. Answers the records this call claimed; one another instance claimed first is left out (its
 * `next_attempt_at` no longer matches once the database lets this update see that claim). A process that dies
 * while sending leaves them pending: due again when the lease ends, and sent again under the same external id.
 */
export async function claimUsageEvents(db: Kysely<Database>, ids: string[], leaseUntil: Date) {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable("billing_usage_event")
    .set({ next_attempt_at: leaseUntil.toISOString() })
    .where("id", "in", ids)
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", new Date().toISOString())
    .returning(["id", "organization_id", "idempotency_key", "event_name", "quantity", "attempts", "created_at"])
    .execute();
  return rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
}

export async function markUsageSent(db: Kysely<Database>, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("billing_usage_event")
    .set({ status: "sent", sent_at: new Date().toISOString(), last_error: null })
    .where("id", "in", ids)
    .execute();
}

export async function markUsageRetry(
  db: Kysely<Database>,
  ids: string[],
  outcome: { error: string; attempts: number; retryAt: Date | null },
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("billing_usage_event")
    .set(
      outcome.retryAt
        ? {
            status: "pending",
            last_error: outcome.error,
            attempts: outcome.attempts,
            next_attempt_at: outcome.retryAt.toISOString(),
          }
        : { status: "failed", last_error: outcome.error, attempts: outcome.attempts },
    )
    .where("id", "in", ids)
    .execute();
}
