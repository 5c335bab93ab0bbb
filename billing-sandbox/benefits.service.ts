import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { notFound, parseBody } from "./api-errors";
import { serializeBenefit, serializeGrant } from "./benefits.serializers";
import type { SandboxContext } from "./context";
import { emitCustomerStateChanged } from "./customers.service";
import { meterBalanceForCustomer, recordSystemEvent } from "./meters.service";
import type { BenefitRecord, CustomerRecord, GrantRecord, ProductRecord, SubscriptionRecord } from "./records";
import { benefitPropertiesSchemas, type benefitCreateSchema, type benefitUpdateSchema } from "./schemas";
import { newId, requireRecord } from "./shared";

/**
 * Benefits and their grants: granted on purchase, updated when the benefit changes, cycled on renewal, revoked when
 * the subscription or order ends.
 */

export function findBenefit(ctx: SandboxContext, id: string): BenefitRecord {
  const benefit = ctx.store.get("benefit", id);
  if (!benefit || benefit.is_deleted) throw notFound();
  return benefit;
}

export function createBenefit(ctx: SandboxContext, input: z.infer<typeof benefitCreateSchema>): BenefitRecord {
  const properties = parseProperties(input.type, input.properties);
  const benefit = ctx.store.put("benefit", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    type: input.type,
    description: input.description,
    selectable: true,
    deletable: true,
    is_deleted: false,
    metadata: input.metadata,
    visibility: "public",
    visibility_configurable: true,
    properties,
  });
  ctx.webhooks.emit("benefit.created", serializeBenefit(ctx, benefit));
  return benefit;
}

/**
 * benefit.updated, then, when the properties or the metadata changed, benefit_grant.updated for each active grant
 * of a live customer and customer.state_changed once per such customer (their state shows both).
 * The provider re-runs grants only for benefit types whose change affects the grant (not for custom benefits);
 * the sandbox announces every change, so an app can follow its features through grants.
 */
export function updateBenefit(
  ctx: SandboxContext,
  benefit: BenefitRecord,
  input: z.infer<typeof benefitUpdateSchema>,
): BenefitRecord {
  const updated = ctx.store.put("benefit", {
    ...benefit,
    description: input.description ?? benefit.description,
    properties: input.properties
      ? parseProperties(benefit.type, { ...benefit.properties, ...input.properties })
      : benefit.properties,
    metadata: input.metadata ?? benefit.metadata,
    modified_at: ctx.clock.iso(),
  });
  ctx.webhooks.emit("benefit.updated", serializeBenefit(ctx, updated));
  if (isDeepStrictEqual([updated.properties, updated.metadata], [benefit.properties, benefit.metadata])) return updated;
  const grants = activeGrants(
    ctx,
    (grant) => grant.benefit_id === benefit.id && !requireRecord(ctx.store, "customer", grant.customer_id).deleted_at,
  );
  for (const grant of grants) {
    const touched = ctx.store.put("grant", { ...grant, modified_at: ctx.clock.iso() });
    ctx.webhooks.emit("benefit_grant.updated", {
      ...serializeGrant(ctx, touched),
      previous_properties: grant.properties,
    });
  }
  for (const customerId of new Set(grants.map((grant) => grant.customer_id))) emitCustomerStateChanged(ctx, customerId);
  return updated;
}

export function parseProperties(type: BenefitRecord["type"], properties: unknown): Record<string, unknown> {
  const schema: z.ZodType = benefitPropertiesSchemas[type];
  // Errors point at body.properties, as the provider's do.
  try {
    return parseBody(schema, properties) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof Error && "body" in error) {
      const body = (error as { body: { detail: { loc: unknown[] }[] } }).body;
      for (const issue of body.detail) issue.loc = ["body", "properties", ...issue.loc.slice(1)];
    }
    throw error;
  }
}

export function grantBenefits(
  ctx: SandboxContext,
  customer: CustomerRecord,
  product: ProductRecord,
  source: { subscriptionId: string | null; orderId: string | null },
): void {
  for (const benefitId of product.benefit_ids) {
    const benefit = ctx.store.get("benefit", benefitId);
    if (!benefit || benefit.is_deleted) continue;
    const now = ctx.clock.iso();
    const properties = benefit.type === "meter_credit" ? creditMeter(ctx, customer, benefit.properties) : {};
    const grant = ctx.store.put("grant", {
      id: newId(),
      created_at: now,
      modified_at: null,
      granted_at: now,
      revoked_at: null,
      is_granted: true,
      is_revoked: false,
      subscription_id: source.subscriptionId,
      order_id: source.orderId,
      customer_id: customer.id,
      benefit_id: benefit.id,
      properties,
    });
    ctx.webhooks.emit("benefit_grant.created", serializeGrant(ctx, grant));
  }
}

function creditMeter(
  ctx: SandboxContext,
  customer: CustomerRecord,
  properties: Record<string, unknown>,
  units = Number(properties.units ?? 0),
): Record<string, unknown> {
  recordSystemEvent(ctx, customer, "meter.credited", {
    meter_id: properties.meter_id,
    units,
    rollover: Boolean(properties.rollover),
  });
  return {
    last_credited_meter_id: String(properties.meter_id),
    last_credited_units: units,
    last_credited_at: ctx.clock.iso(),
  };
}

export function activeGrants(ctx: SandboxContext, predicate: (grant: GrantRecord) => boolean): GrantRecord[] {
  return ctx.store.list("grant", (grant) => grant.is_granted && !grant.is_revoked && predicate(grant));
}

export function revokeGrants(ctx: SandboxContext, grants: GrantRecord[]): void {
  for (const grant of grants) {
    const benefit = ctx.store.get("benefit", grant.benefit_id);
    if (benefit?.type === "meter_credit") {
      recordSystemEvent(ctx, requireRecord(ctx.store, "customer", grant.customer_id), "meter.credited", {
        meter_id: benefit.properties.meter_id,
        units: -Number(grant.properties.last_credited_units ?? 0),
        rollover: false,
      });
    }
    const now = ctx.clock.iso();
    const revoked = ctx.store.put("grant", {
      ...grant,
      is_granted: false,
      is_revoked: true,
      revoked_at: now,
      modified_at: now,
    });
    ctx.webhooks.emit("benefit_grant.revoked", serializeGrant(ctx, revoked));
  }
}

/** benefit_grant.cycled for every grant of the subscription; meter_credit grants reset and credit again. */
export function cycleGrants(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  customer: CustomerRecord,
  balancesBefore: Map<string, { consumed: number; credited: number }>,
): void {
  for (const grant of activeGrants(ctx, (candidate) => candidate.subscription_id === subscription.id)) {
    const benefit = ctx.store.get("benefit", grant.benefit_id);
    let properties = grant.properties;
    if (benefit?.type === "meter_credit") {
      const meterId = String(benefit.properties.meter_id);
      let before = balancesBefore.get(meterId);
      if (!before) {
        const meter = ctx.store.get("meter", meterId);
        before = meter ? meterBalanceForCustomer(ctx, customer, meter) : { consumed: 0, credited: 0 };
        recordSystemEvent(ctx, customer, "meter.reset", { meter_id: meterId });
      }
      const units = Number(benefit.properties.units ?? 0);
      if (benefit.properties.rollover) {
        const rollover = Math.min(Math.max(0, before.credited - before.consumed), units);
        if (rollover > 0)
          recordSystemEvent(ctx, customer, "meter.credited", { meter_id: meterId, units: rollover, rollover: true });
      }
      properties = creditMeter(ctx, customer, benefit.properties, units);
    }
    const cycled = ctx.store.put("grant", { ...grant, properties, modified_at: ctx.clock.iso() });
    ctx.webhooks.emit("benefit_grant.cycled", serializeGrant(ctx, cycled));
  }
}
