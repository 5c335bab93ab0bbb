import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { BillingObjectTable, Database } from "../../db/schema";
import type { OrganizationScope } from "../organizations";

/**
 * Every query of the billing module. Provider timestamps are compared as normalised ISO text (see 0005-billing).
 * A function that reads or writes one organization's billing rows takes its scope: the organization whose rows
 * they are (a member's `OrganizationScope` from a route, or the organization a webhook or a job is about).
 */

export { isoText } from "./billing.projection";

export type BillingScope = Pick<OrganizationScope, "organizationId">;
export type ObjectKind = BillingObjectTable["kind"];
export type CustomerRow = Awaited<ReturnType<typeof findCustomer>>;

export async function findCustomer(db: Kysely<Database>, scope: BillingScope) {
  return db.selectFrom("billing_customer").selectAll().where("organization_id", "=", scope.organizationId).executeTakeFirst();
}

export async function findOrganizationIdByCustomerId(db: Kysely<Database>, customerId: string): Promise<string | undefined> {
  const row = await db.selectFrom("billing_customer").select("organization_id").where("customer_id", "=", customerId).executeTakeFirst();
  return row?.organization_id;
}

/** Records the provider customer of an organization (once known); a repeat is harmless. */
export async function saveCustomerId(db: Kysely<Database>, scope: BillingScope, customerId: string): Promise<void> {
  await db
    .insertInto("billing_customer")
    .values({ organization_id: scope.organizationId, customer_id: customerId, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column("organization_id").doUpdateSet({ customer_id: customerId }))
    .execute();
}

/**
 * Stores the provider's customer state unless a newer one is already stored (webhooks may arrive out of order).
 * Returns whether it was stored.
 */
export async function saveCustomerState(
  db: Kysely<Database>,
  scope: BillingScope,
  state: { json: string; at: string; customerId: string },
): Promise<boolean> {
  const now = new Date().toISOString();
  const stateColumns = { customer_id: state.customerId, state: state.json, state_at: state.at, synced_at: now };
  const result = await db
    .insertInto("billing_customer")
    .values({ organization_id: scope.organizationId, ...stateColumns, created_at: now })
    .onConflict((conflict) =>
      conflict
        .column("organization_id")
        .doUpdateSet(stateColumns)
        .where((eb) => eb.or([eb("billing_customer.state_at", "is", null), eb("billing_customer.state_at", "<=", state.at)])),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function savePaymentMethod(
  db: Kysely<Database>,
  scope: BillingScope,
  paymentMethod: { brand: string; last4: string } | null,
): Promise<void> {
  await db
    .updateTable("billing_customer")
    .set({ payment_method: paymentMethod ? JSON.stringify(paymentMethod) : null })
    .where("organization_id", "=", scope.organizationId)
    .execute();
}

/** Forgets the provider customer (deleted at the provider): the organization is back to having none. */
export async function forgetCustomer(db: Kysely<Database>, scope: BillingScope): Promise<void> {
  await db.deleteFrom("billing_customer").where("organization_id", "=", scope.organizationId).execute();
}

/** Stores a provider object unless the stored copy is newer: an older event never overwrites newer state. */
export async function saveObject(
  db: Kysely<Database>,
  scope: BillingScope,
  object: { kind: ObjectKind; id: string; modifiedAt: string; createdAt: string; data: unknown },
): Promise<void> {
  const data = JSON.stringify(object.data);
  const { kind, id, modifiedAt } = object;
  await db
    .insertInto("billing_object")
    .values({ kind, id, organization_id: scope.organizationId, modified_at: modifiedAt, created_at: object.createdAt, data })
    .onConflict((conflict) =>
      conflict.columns(["kind", "id"]).doUpdateSet({ modified_at: modifiedAt, data }).where("billing_object.modified_at", "<=", modifiedAt),
    )
    .execute();
}

export async function listObjects<T>(db: Kysely<Database>, scope: BillingScope, kind: ObjectKind, limit = 50): Promise<T[]> {
  const rows = await db
    .selectFrom("billing_object")
    .select("data")
    .where("organization_id", "=", scope.organizationId)
    .where("kind", "=", kind)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => JSON.parse(row.data) as T);
}

export async function findObject<T>(db: Kysely<Database>, scope: BillingScope, kind: ObjectKind, id: string): Promise<T | undefined> {
  const row = await db
    .selectFrom("billing_object")
    .select("data")
    .where("kind", "=", kind)
    .where("id", "=", id)
    .where("organization_id", "=", scope.organizationId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.data) as T) : undefined;
}

/** The organization's name for its provider customer (the routes' admin reads use it too). */
export async function findOrganization(db: Kysely<Database>, organizationId: string) {
  return db.selectFrom("organization").select(["id", "name", "slug"]).where("id", "=", organizationId).executeTakeFirst();
}

/** The stored subscriptions of several organizations at once (the admin list's plan column). */
export async function listSubscriptionsOf<T>(db: Kysely<Database>, organizationIds: string[]): Promise<Array<{ organizationId: string; data: T }>> {
  if (organizationIds.length === 0) return [];
  const rows = await db
    .selectFrom("billing_object")
    .select(["organization_id", "data"])
    .where("kind", "=", "subscription")
    .where("organization_id", "in", organizationIds)
    .execute();
  return rows.map((row) => ({ organizationId: row.organization_id, data: JSON.parse(row.data) as T }));
}

/** Organizations with a provider customer: what the reconciliation job walks. */
export async function listBilledOrganizationIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom("billing_customer").select("organization_id").where("customer_id", "is not", null).execute();
  return rows.map((row) => row.organization_id);
}

// The webhook inbox

/** Stores a verified delivery; false when its webhook-id was stored before (a redelivery). */
export async function insertWebhookEvent(db: Kysely<Database>, event: { id: string; type: string; payload: string }): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await db
    .insertInto("billing_webhook_event")
    .values({ id: event.id, type: event.type, payload: event.payload, status: "pending", attempts: 0, next_attempt_at: now, received_at: now })
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
    .set({ status: outcome.status, organization_id: outcome.organizationId, applied_at: new Date().toISOString(), last_error: null })
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
    .set({ status: outcome.status, last_error: outcome.error, attempts: outcome.attempts, next_attempt_at: outcome.retryAt.toISOString() })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .execute();
}

/** Deletes handled deliveries and sent usage older than `before`; failed and pending rows stay for a look. */
export async function purgeHandledBefore(db: Kysely<Database>, before: Date): Promise<{ webhooks: number; usage: number }> {
  const cutoff = before.toISOString();
  const webhooks = await db
    .deleteFrom("billing_webhook_event")
    .where("status", "in", ["applied", "ignored"])
    .where("received_at", "<", cutoff)
    .executeTakeFirst();
  const usage = await db.deleteFrom("billing_usage_event").where("status", "=", "sent").where("sent_at", "<", cutoff).executeTakeFirst();
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
  await db.updateTable("billing_usage_event").set({ status: "sent", sent_at: new Date().toISOString(), last_error: null }).where("id", "in", ids).execute();
}

export async function markUsageRetry(db: Kysely<Database>, ids: string[], outcome: { error: string; attempts: number; retryAt: Date | null }): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("billing_usage_event")
    .set(
      outcome.retryAt
        ? { status: "pending", last_error: outcome.error, attempts: outcome.attempts, next_attempt_at: outcome.retryAt.toISOString() }
        : { status: "failed", last_error: outcome.error, attempts: outcome.attempts },
    )
    .where("id", "in", ids)
    .execute();
}
