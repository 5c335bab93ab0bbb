import { addHours } from "date-fns/addHours";
import { z } from "zod";
import { notFound, parseBody, readJson, validationError } from "./api-errors";
import { addInterval } from "./clock";
import type { SandboxContext } from "./context";
import { serializeCustomer, serializeCustomerMeter } from "./customers.serializers";
import { newRouter, paginate, queryList } from "./http";
import { serializeMeter } from "./meters.serializers";
import { aggregate, createMeter, customerMeterBalances, findMeter, meterEvents } from "./meters.service";
import type { CustomerRecord } from "./records";
import { eventsIngestSchema, meterCreateSchema, meterUpdateSchema } from "./schemas";
import { newId, stableId } from "./shared";

/** Meters and their quantities, event ingestion, and customer meter balances. */

const quantitiesQuerySchema = z.object({
  start_timestamp: z.iso.datetime({ offset: true }),
  end_timestamp: z.iso.datetime({ offset: true }),
  interval: z.enum(["hour", "day", "week", "month", "year"]),
});

export function meterRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.get("/", (c) => {
    const isArchived = c.req.query("is_archived");
    const meters = ctx.store.list(
      "meter",
      (meter) => isArchived === undefined || (meter.archived_at !== null) === (isArchived === "true"),
    );
    return c.json(paginate(c, meters, (meter) => serializeMeter(ctx, meter)));
  });
  router.post("/", async (c) => {
    const input = await readJson(c, meterCreateSchema);
    return c.json(serializeMeter(ctx, createMeter(ctx, input)), 201);
  });
  router.get("/:id", (c) => c.json(serializeMeter(ctx, findMeter(ctx, c.req.param("id")))));
  router.patch("/:id", async (c) => {
    const meter = findMeter(ctx, c.req.param("id"));
    const input = await readJson(c, meterUpdateSchema);
    const updated = ctx.store.put("meter", {
      ...meter,
      name: input.name ?? meter.name,
      filter: input.filter ?? meter.filter,
      aggregation: input.aggregation ?? meter.aggregation,
      metadata: input.metadata ?? meter.metadata,
      archived_at:
        input.is_archived === undefined || input.is_archived === null
          ? meter.archived_at
          : input.is_archived
            ? (meter.archived_at ?? ctx.clock.iso())
            : null,
      modified_at: ctx.clock.iso(),
    });
    return c.json(serializeMeter(ctx, updated));
  });
  router.get("/:id/quantities", (c) => {
    const meter = findMeter(ctx, c.req.param("id"));
    const query = parseBody(quantitiesQuerySchema, c.req.query());
    const customerIds = queryList(c, "customer_id");
    const externalIds = queryList(c, "external_customer_id");
    const events = meterEvents(ctx, meter, {
      since: new Date(query.start_timestamp).toISOString(),
      until: new Date(query.end_timestamp).toISOString(),
    }).filter(
      (event) =>
        (!customerIds || (event.customer_id !== null && customerIds.includes(event.customer_id))) &&
        (!externalIds || (event.external_customer_id !== null && externalIds.includes(event.external_customer_id))),
    );
    const quantities: { timestamp: string; quantity: number }[] = [];
    const first = new Date(query.start_timestamp);
    const end = new Date(query.end_timestamp);
    // Every bucket starts a whole number of intervals after the first, so monthly buckets from Jan 31 keep the 31st where there is one.
    const bucketStart = (index: number) =>
      query.interval === "hour" ? addHours(first, index) : addInterval(first, query.interval, index);
    for (let index = 0, start = first; start < end && quantities.length < 1000; index += 1) {
      const next = bucketStart(index + 1);
      const bucket = events.filter(
        (event) => event.timestamp >= start.toISOString() && event.timestamp < next.toISOString(),
      );
      quantities.push({ timestamp: start.toISOString(), quantity: aggregate(bucket, meter.aggregation) });
      start = next;
    }
    return c.json({ quantities, total: aggregate(events, meter.aggregation) });
  });
  return router;
}

export function eventRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.post("/ingest", async (c) => {
    const input = await readJson(c, eventsIngestSchema);
    const now = ctx.clock.iso();
    const result = ctx.store.transaction(() => {
      let inserted = 0;
      let duplicates = 0;
      input.events.forEach((event, index) => {
        if (!event.customer_id && !event.external_customer_id)
          throw validationError(["body", "events", index, "external_customer_id"], "Field required");
        if (event.timestamp && new Date(event.timestamp).toISOString() > now)
          throw validationError(["body", "events", index, "timestamp"], "Timestamp must be in the past.");
        if (event.customer_id && !ctx.store.get("customer", event.customer_id))
          throw validationError(["body", "events", index, "customer_id"], "Customer does not exist.");
        if (
          event.external_id &&
          ctx.store.list("event", (stored) => stored.external_id === event.external_id).length > 0
        ) {
          duplicates += 1;
          return;
        }
        ctx.store.put("event", {
          id: newId(),
          timestamp: event.timestamp ? new Date(event.timestamp).toISOString() : now,
          name: event.name,
          source: "user",
          customer_id: event.customer_id ?? null,
          external_customer_id: event.external_customer_id ?? null,
          external_id: event.external_id ?? null,
          metadata: event.metadata,
        });
        inserted += 1;
      });
      return { inserted, duplicates };
    });
    return c.json(result);
  });
  router.get("/", (c) => {
    const names = queryList(c, "name");
    const externalIds = queryList(c, "external_customer_id");
    const customerIds = queryList(c, "customer_id");
    const customers = new Map(ctx.store.list("customer").map((customer) => [customer.id, customer]));
    const byExternalId = new Map(ctx.store.list("customer").map((customer) => [customer.external_id, customer]));
    const events = ctx.store.list(
      "event",
      (event) =>
        event.source === "user" &&
        (!names || names.includes(event.name)) &&
        (!externalIds || (event.external_customer_id !== null && externalIds.includes(event.external_customer_id))) &&
        (!customerIds || (event.customer_id !== null && customerIds.includes(event.customer_id))),
    );
    return c.json(
      paginate(c, events, (event) => {
        const customer =
          (event.customer_id ? customers.get(event.customer_id) : byExternalId.get(event.external_customer_id)) ?? null;
        return {
          id: event.id,
          timestamp: event.timestamp,
          organization_id: ctx.organization.id,
          customer_id: customer?.id ?? null,
          customer: customer ? serializeCustomer(ctx, customer) : null,
          external_customer_id: event.external_customer_id,
          label: event.name,
          name: event.name,
          source: "user",
          metadata: event.metadata,
        };
      }),
    );
  });
  return router;
}

export function customerMeterRoutes(ctx: SandboxContext) {
  const router = newRouter();
  const all = () =>
    ctx.store
      .list("customer", (customer) => customer.deleted_at === null)
      .flatMap((customer: CustomerRecord) =>
        customerMeterBalances(ctx, customer).map(({ meter }) => ({
          customer,
          meter,
          id: stableId(customer.id, meter.id),
        })),
      );
  router.get("/", (c) => {
    const customerIds = queryList(c, "customer_id");
    const externalIds = queryList(c, "external_customer_id");
    const meterIds = queryList(c, "meter_id");
    const entries = all().filter(
      ({ customer, meter }) =>
        (!customerIds || customerIds.includes(customer.id)) &&
        (!externalIds || externalIds.includes(customer.external_id ?? "")) &&
        (!meterIds || meterIds.includes(meter.id)),
    );
    return c.json(paginate(c, entries, ({ customer, meter }) => serializeCustomerMeter(ctx, customer, meter)));
  });
  router.get("/:id", (c) => {
    const entry = all().find((candidate) => candidate.id === c.req.param("id"));
    if (!entry) throw notFound();
    return c.json(serializeCustomerMeter(ctx, entry.customer, entry.meter));
  });
  return router;
}
