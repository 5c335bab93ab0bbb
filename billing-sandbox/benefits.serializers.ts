import type { SandboxContext } from "./context";
import { serializeCustomer } from "./customers.serializers";
import type { BenefitRecord, GrantRecord } from "./records";
import { findRecord, requireRecord, type Json } from "./shared";

/** Benefit. */
export function serializeBenefit(ctx: SandboxContext, benefit: BenefitRecord): Json {
  return { ...benefit, organization_id: ctx.organization.id };
}

/** BenefitPublic: what buyers may see. */
export function serializeBenefitPublic(ctx: SandboxContext, benefit: BenefitRecord): Json {
  const { id, created_at, modified_at, type, description, selectable, deletable, is_deleted } = benefit;
  return {
    id,
    created_at,
    modified_at,
    type,
    description,
    selectable,
    deletable,
    is_deleted,
    organization_id: ctx.organization.id,
  };
}

/** BenefitGrant (and the BenefitGrant*Webhook variants, which share its fields). */
export function serializeGrant(ctx: SandboxContext, grant: GrantRecord): Json {
  const benefit = findRecord(ctx.store, "benefit", grant.benefit_id);
  return {
    ...grant,
    customer: serializeCustomer(ctx, requireRecord(ctx.store, "customer", grant.customer_id)),
    benefit: serializeBenefit(ctx, benefit),
  };
}
