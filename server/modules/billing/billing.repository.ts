import { sql, type Kysely } from "kysely";
import type { BillingObjectTable, Database } from "../../db/schema";
import type { OrganizationScope } from "../organizations";

/**
 * Every query of the billing module. Provider timestamps are compared as normalised ISO text (see 0005-billing).
 * A function that reads or writes one organization's billing rows takes its scope: the organization whose rows
 * they are (a member's `OrganizationScope` from a route, or the organization a webhook or a job is about). The
 * webhook inbox and the usage outbox are in billing.queues.repository.ts.
 */

export { isoText } from "./billing.projection";

export type BillingScope = Pick<OrganizationScope, "organizationId">;
export type ObjectKind = BillingObjectTable["kind"];
export type CustomerRow = Awaited<ReturnType<typeof findCustomer>>;

export async function findCustomer(db: Kysely<Database>, scope: BillingScope) {
  return db
    .selectFrom("billing_customer")
    .selectAll()
    .where("organization_id", "=", scope.organizationId)
    .executeTakeFirst();
}

export async function findOrganizationIdByCustomerId(
  db: Kysely<Database>,
  customerId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom("billing_customer")
    .select("organization_id")
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
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
        .where((eb) =>
          eb.or([eb("billing_customer.state_at", "is", null), eb("billing_customer.state_at", "<=", state.at)]),
        ),
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
    .values({
      kind,
      id,
      organization_id: scope.organizationId,
      modified_at: modifiedAt,
      created_at: object.createdAt,
      data,
    })
    .onConflict((conflict) =>
      conflict
        .columns(["kind", "id"])
        .doUpdateSet({ modified_at: modifiedAt, data })
        .where("billing_object.modified_at", "<=", modifiedAt),
    )
    .execute();
}

export async function listObjects<T>(
  db: Kysely<Database>,
  scope: BillingScope,
  kind: ObjectKind,
  limit = 50,
): Promise<T[]> {
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

export async function findObject<T>(
  db: Kysely<Database>,
  scope: BillingScope,
  kind: ObjectKind,
  id: string,
): Promise<T | undefined> {
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
  return db
    .selectFrom("organization")
    .select(["id", "name", "slug"])
    .where("id", "=", organizationId)
    .executeTakeFirst();
}

/** The stored subscriptions of several organizations at once (the admin list's plan column). */
export async function listSubscriptionsOf<T>(
  db: Kysely<Database>,
  organizationIds: string[],
): Promise<Array<{ organizationId: string; data: T }>> {
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
  const rows = await db
    .selectFrom("billing_customer")
    .select("organization_id")
    .where("customer_id", "is not", null)
    .execute();
  return rows.map((row) => row.organization_id);
}

/** Adds `quantity` to the running count of one meter in one period (in the transaction that queues the record). */
export async function addToUsageCount(
  db: Kysely<Database>,
  scope: BillingScope,
  usage: { meterId: string; periodStart: string; quantity: number },
): Promise<void> {
  await db
    .insertInto("billing_usage_count")
    .values({
      organization_id: scope.organizationId,
      meter_id: usage.meterId,
      period_start: usage.periodStart,
      quantity: usage.quantity,
    })
    .onConflict((conflict) =>
      conflict
        .columns(["organization_id", "meter_id", "period_start"])
        .doUpdateSet({ quantity: sql<number>`billing_usage_count.quantity + excluded.quantity` }),
    )
    .execute();
}

/** Sets the running count of each meter (by id) in one period: the reconciliation's agreed count. */
export async function setUsageCounts(
  db: Kysely<Database>,
  scope: BillingScope,
  periodStart: string,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  for (const [meterId, quantity] of counts) {
    await db
      .insertInto("billing_usage_count")
      .values({ organization_id: scope.organizationId, meter_id: meterId, period_start: periodStart, quantity })
      .onConflict((conflict) =>
        conflict.columns(["organization_id", "meter_id", "period_start"]).doUpdateSet({ quantity }),
      )
      .execute();
  }
}

/** The running count of each meter (by id) in one period. */
export async function findUsageCounts(
  db: Kysely<Database>,
  scope: BillingScope,
  periodStart: string,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("billing_usage_count")
    .select(["meter_id", "quantity"])
    .where("organization_id", "=", scope.organizationId)
    .where("period_start", "=", periodStart)
    .execute();
  return new Map(rows.map((row) => [row.meter_id, Number(row.quantity)]));
}

/** What is queued and not yet sent, per event name: the part of the running count the provider has not seen. */
export async function findPendingUsage(db: Kysely<Database>, scope: BillingScope): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("billing_usage_event")
    .select(["event_name", (eb) => eb.fn.sum<number | string>("quantity").as("quantity")])
    .where("organization_id", "=", scope.organizationId)
    .where("status", "=", "pending")
    .groupBy("event_name")
    .execute();
  return new Map(rows.map((row) => [row.event_name, Number(row.quantity)]));
}
