import type { SandboxContext } from "./context";
import { serializeMeter, serializeSubscriptionMeters } from "./meters.serializers";
import { customerMeterBalances, meterBalanceForCustomer } from "./meters.service";
import type { CustomerRecord, CustomerSessionRecord, MeterRecord, PaymentMethodRecord } from "./records";
import { requireRecord, stableId, type Json } from "./shared";

/** Customer: CustomerIndividual or CustomerTeam, by its `type`. */
export function serializeCustomer(ctx: SandboxContext, customer: CustomerRecord): Json {
  return { ...customer, organization_id: ctx.organization.id, first_user_event_at: null, avatar_url: null };
}

/** CustomerState (CustomerStateIndividual | CustomerStateTeam): the customer with active subscriptions, granted benefits and meter balances. */
export function serializeCustomerState(ctx: SandboxContext, customer: CustomerRecord): Json {
  const grants = ctx.store.list(
    "grant",
    (grant) => grant.customer_id === customer.id && grant.is_granted && !grant.is_revoked,
  );
  const activeSubscriptions = ctx.store.list(
    "subscription",
    (subscription) =>
      subscription.customer_id === customer.id &&
      (subscription.status === "active" || subscription.status === "trialing"),
  );
  return {
    ...serializeCustomer(ctx, customer),
    active_subscriptions: activeSubscriptions.map((subscription) => ({
      id: subscription.id,
      created_at: subscription.created_at,
      modified_at: subscription.modified_at,
      custom_field_data: subscription.custom_field_data,
      metadata: subscription.metadata,
      status: subscription.status,
      amount: subscription.amount,
      currency: subscription.currency,
      recurring_interval: subscription.recurring_interval,
      current_period_start: subscription.current_period_start,
      current_period_end: subscription.current_period_end,
      trial_start: subscription.trial_start,
      trial_end: subscription.trial_end,
      cancel_at_period_end: subscription.cancel_at_period_end,
      canceled_at: subscription.canceled_at,
      started_at: subscription.started_at,
      ends_at: subscription.ends_at,
      product_id: subscription.product_id,
      discount_id: subscription.discount_id,
      meters: serializeSubscriptionMeters(ctx, subscription, false),
    })),
    granted_benefits: grants.flatMap((grant) => {
      const benefit = ctx.store.get("benefit", grant.benefit_id);
      if (!benefit) return [];
      return [
        {
          id: grant.id,
          created_at: grant.created_at,
          modified_at: grant.modified_at,
          granted_at: grant.granted_at,
          benefit_id: benefit.id,
          benefit_type: benefit.type,
          benefit_metadata: benefit.metadata,
          properties: grant.properties,
        },
      ];
    }),
    active_meters: customerMeterBalances(ctx, customer).map(({ meter, balance }) => ({
      id: stableId(customer.id, meter.id),
      created_at: customer.created_at,
      modified_at: null,
      meter_id: meter.id,
      consumed_units: balance.consumed,
      credited_units: balance.credited,
      balance: balance.credited - balance.consumed,
    })),
  };
}

/** The balance fields CustomerMeter (organization) and CustomerCustomerMeter (portal) share. */
export function customerMeterBase(ctx: SandboxContext, customer: CustomerRecord, meter: MeterRecord): Json {
  const balance = meterBalanceForCustomer(ctx, customer, meter);
  return {
    id: stableId(customer.id, meter.id),
    created_at: customer.created_at,
    modified_at: null,
    customer_id: customer.id,
    meter_id: meter.id,
    consumed_units: balance.consumed,
    credited_units: balance.credited,
    balance: balance.credited - balance.consumed,
  };
}

/** CustomerMeter (the organization's view). */
export function serializeCustomerMeter(ctx: SandboxContext, customer: CustomerRecord, meter: MeterRecord): Json {
  return {
    ...customerMeterBase(ctx, customer, meter),
    customer: serializeCustomer(ctx, customer),
    meter: serializeMeter(ctx, meter),
  };
}

/** CustomerSession. */
export function serializeCustomerSession(ctx: SandboxContext, session: CustomerSessionRecord): Json {
  const customer = requireRecord(ctx.store, "customer", session.customer_id);
  const portalUrl = new URL(`${ctx.publicUrl}/portal`);
  portalUrl.searchParams.set("customer_session_token", session.token);
  if (customer.email) portalUrl.searchParams.set("email", customer.email);
  return { ...session, customer_portal_url: portalUrl.toString(), customer: serializeCustomer(ctx, customer) };
}

/** PaymentMethod (CustomerPaymentMethodCard): a saved test card; the customer's default is the one saved last. */
export function serializePaymentMethod(customer: CustomerRecord, method: PaymentMethodRecord): Json {
  const { token: _token, ...wire } = method;
  return { ...wire, is_default: customer.default_payment_method_id === method.id };
}
