import type { z } from "zod";
import { validationError } from "./api-errors";
import type { SandboxContext } from "./context";
import type { Aggregation, CustomerRecord, EventRecord, Filter, FilterClause, MeterRecord } from "./records";
import type { meterCreateSchema } from "./schemas";
import { findRecord, newId } from "./shared";

/**
 * Meters as the provider computes them: a filter picks events, an aggregation turns them into units.
 * Balances are computed on read from the events since the customer's last `meter.reset` system event,
 * credits come from `meter.credited` system events (written by meter_credit benefits).
 */

function eventValue(event: EventRecord, property: string): unknown {
  if (property === "name") return event.name;
  if (property === "source") return event.source;
  if (property === "timestamp") return Math.floor(new Date(event.timestamp).getTime() / 1000);
  let value: unknown = event.metadata;
  for (const key of property.replace(/^metadata\./, "").split(".")) {
    if (value === null || typeof value !== "object" || !(key in value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function clauseMatches(event: EventRecord, clause: FilterClause): boolean {
  const actual = eventValue(event, clause.property);
  if (actual === undefined) return false;
  const expected = clause.value;
  if (clause.operator === "like") return String(actual).includes(String(expected));
  if (clause.operator === "not_like") return !String(actual).includes(String(expected));
  if (typeof actual !== typeof expected) return false;
  const a = actual as string | number | boolean;
  switch (clause.operator) {
    case "eq":
      return a === expected;
    case "ne":
      return a !== expected;
    case "gt":
      return a > expected;
    case "gte":
      return a >= expected;
    case "lt":
      return a < expected;
    case "lte":
      return a <= expected;
  }
}

export function filterMatches(event: EventRecord, filter: Filter): boolean {
  if (filter.clauses.length === 0) return true;
  const results = filter.clauses.map((clause) =>
    "conjunction" in clause ? filterMatches(event, clause) : clauseMatches(event, clause),
  );
  return filter.conjunction === "and" ? results.every(Boolean) : results.some(Boolean);
}

export function aggregate(events: EventRecord[], aggregation: Aggregation): number {
  if (aggregation.func === "count") return events.length;
  const values = events.map((event) => eventValue(event, aggregation.property));
  if (aggregation.func === "unique") return new Set(values.filter((value) => value !== undefined).map(String)).size;
  const numbers = values.filter((value): value is number => typeof value === "number");
  if (numbers.length === 0) return 0;
  switch (aggregation.func) {
    case "sum":
      return numbers.reduce((total, value) => total + value, 0);
    case "max":
      return Math.max(...numbers);
    case "min":
      return Math.min(...numbers);
    case "avg":
      return numbers.reduce((total, value) => total + value, 0) / numbers.length;
  }
}

const belongsTo = (event: EventRecord, customer: CustomerRecord) =>
  event.customer_id === customer.id ||
  (customer.external_id !== null && event.external_customer_id === customer.external_id);

/** Events of one meter, optionally limited to a customer and a time window. */
export function meterEvents(
  ctx: SandboxContext,
  meter: MeterRecord,
  options: { customer?: CustomerRecord; since?: string; until?: string } = {},
): EventRecord[] {
  return ctx.store.list(
    "event",
    (event) =>
      event.source === "user" &&
      (!options.customer || belongsTo(event, options.customer)) &&
      (!options.since || event.timestamp >= options.since) &&
      (!options.until || event.timestamp < options.until) &&
      filterMatches(event, meter.filter),
  );
}

export type MeterBalance = { consumed: number; credited: number };

export function meterBalanceForCustomer(
  ctx: SandboxContext,
  customer: CustomerRecord,
  meter: MeterRecord,
): MeterBalance {
  const systemEvents = ctx.store.list(
    "event",
    (event) => event.source === "system" && event.customer_id === customer.id && event.metadata.meter_id === meter.id,
  );
  const lastReset = systemEvents.filter((event) => event.name === "meter.reset").at(-1);
  const since = lastReset?.timestamp;
  // System events are replayed in the order they were written: a reset starts the running credit over.
  let credited = 0;
  for (const event of systemEvents) {
    credited = event.name === "meter.reset" ? 0 : Math.max(0, credited + Number(event.metadata.units ?? 0));
  }
  return { consumed: aggregate(meterEvents(ctx, meter, { customer, since }), meter.aggregation), credited };
}

/** Meters the customer has used or been credited on. */
export function customerMeterBalances(
  ctx: SandboxContext,
  customer: CustomerRecord,
): { meter: MeterRecord; balance: MeterBalance }[] {
  return ctx.store
    .list("meter", (meter) => meter.archived_at === null)
    .map((meter) => ({ meter, balance: meterBalanceForCustomer(ctx, customer, meter) }))
    .filter(({ balance }) => balance.consumed !== 0 || balance.credited !== 0);
}

export function recordSystemEvent(
  ctx: SandboxContext,
  customer: CustomerRecord,
  name: "meter.credited" | "meter.reset",
  metadata: Record<string, unknown>,
): void {
  ctx.store.put("event", {
    id: newId(),
    timestamp: ctx.clock.iso(),
    name,
    source: "system",
    customer_id: customer.id,
    external_customer_id: customer.external_id,
    external_id: null,
    metadata,
  });
}

export const findMeter = (ctx: SandboxContext, id: string): MeterRecord => findRecord(ctx.store, "meter", id);

export function createMeter(ctx: SandboxContext, input: z.infer<typeof meterCreateSchema>): MeterRecord {
  if (input.unit === "custom" && !input.custom_label)
    throw validationError(["body", "custom_label"], "Field required for a custom unit.");
  return ctx.store.put("meter", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    metadata: input.metadata,
    name: input.name,
    unit: input.unit,
    custom_label: input.custom_label ?? null,
    custom_multiplier: input.unit === "custom" ? (input.custom_multiplier ?? 1) : null,
    filter: input.filter,
    aggregation: input.aggregation,
    archived_at: null,
  });
}
