/**
 * What the sandbox stores. Records keep the provider's wire field names, so serializing is mostly
 * "add the nested objects"; fields the wire never shows (card on file, benefit ids) are named plainly.
 */

export type Metadata = Record<string, string | number | boolean>;
export type RecurringInterval = "day" | "week" | "month" | "year";

type Timestamps = { id: string; created_at: string; modified_at: string | null };

export type PriceRecord = Timestamps & {
  source: "catalog";
  amount_type: "fixed" | "custom" | "metered_unit" | "seat_based";
  price_currency: string;
  tax_behavior: null;
  is_archived: boolean;
  product_id: string;
  price_amount?: number;
  minimum_amount?: number;
  maximum_amount?: number | null;
  preset_amount?: number | null;
  unit_amount?: string;
  cap_amount?: number | null;
  meter_id?: string;
  seat_tiers?: {
    tiers: { min_seats: number; max_seats: number | null; price_per_seat: number }[];
    minimum_seats: number;
    maximum_seats: number | null;
  };
};

export type AttachedCustomFieldRecord = { custom_field_id: string; order: number; required: boolean };

export type ProductRecord = Timestamps & {
  name: string;
  description: string | null;
  visibility: "draft" | "private" | "public";
  recurring_interval: RecurringInterval | null;
  recurring_interval_count: number | null;
  trial_interval: RecurringInterval | null;
  trial_interval_count: number | null;
  is_archived: boolean;
  metadata: Metadata;
  prices: PriceRecord[];
  benefit_ids: string[];
  attached_custom_fields: AttachedCustomFieldRecord[];
};

export type BenefitType =
  "custom" | "discord" | "github_repository" | "downloadables" | "license_keys" | "meter_credit" | "feature_flag";

export type BenefitRecord = Timestamps & {
  type: BenefitType;
  description: string;
  selectable: boolean;
  deletable: boolean;
  is_deleted: boolean;
  metadata: Metadata;
  visibility: "draft" | "private" | "public";
  visibility_configurable: boolean;
  properties: Record<string, unknown>;
};

export type CustomFieldRecord = Timestamps & {
  type: "checkbox" | "date" | "number" | "select" | "text";
  slug: string;
  name: string;
  metadata: Metadata;
  properties: Record<string, unknown>;
};

export type DiscountRecord = Timestamps & {
  name: string;
  type: "fixed" | "percentage";
  basis_points?: number;
  amount?: number;
  currency?: string;
  duration: "once" | "forever" | "repeating";
  duration_in_months?: number;
  code: string | null;
  starts_at: string | null;
  ends_at: string | null;
  max_redemptions: number | null;
  redemptions_count: number;
  metadata: Metadata;
  product_ids: string[];
};

export type AddressRecord = {
  country: string;
  line1?: string | null;
  line2?: string | null;
  postal_code?: string | null;
  city?: string | null;
  state?: string | null;
};

export type CustomerRecord = Timestamps & {
  metadata: Metadata;
  external_id: string | null;
  /** Always set for an individual; a team may have none. */
  email: string | null;
  email_verified: boolean;
  type: "individual" | "team";
  name: string | null;
  billing_name: string | null;
  billing_address: AddressRecord | null;
  tax_id: [string, string] | null;
  locale: string | null;
  /** The card saved last (see PaymentMethodRecord); absent on customers stored before cards were saved. */
  default_payment_method_id?: string | null;
  deleted_at: string | null;
};

/** A test card saved on a customer when a checkout or the card control uses it. */
export type PaymentMethodRecord = Timestamps & {
  customer_id: string;
  processor: "stripe";
  type: "card";
  method_metadata: { brand: string; last4: string; exp_month: number; exp_year: number; wallet: null };
  /** The test card token it stands for (`tok_visa`, …), so the same card is saved once. */
  token: string;
};

export type ProrationBehavior = "invoice" | "prorate";

/**
 * The provider organization (the merchant) the sandbox plays, kept in a setting rather than as a kind:
 * there is exactly one. Its settings are the OrganizationUpdate fields the sandbox stores as given.
 */
export type OrganizationRecord = {
  id: string;
  created_at: string;
  modified_at: string | null;
  name: string;
  slug: string;
  avatar_url: string | null;
  email: string | null;
  website: string | null;
  socials: { platform: string; url: string }[];
  country: string | null;
  default_presentment_currency: string;
  default_tax_behavior: "location" | "inclusive" | "exclusive";
  sso_enforced: boolean;
  embed_hosts: string[];
  feature_settings: Record<string, boolean | string[] | null>;
  subscription_settings: {
    allow_multiple_subscriptions: boolean;
    /** What a product or seat change does when the request names no proration behavior. */
    proration_behavior: ProrationBehavior;
    benefit_revocation_grace_period: number;
    prevent_trial_abuse: boolean;
    allow_customer_updates: boolean;
  };
  customer_email_settings: Record<string, boolean>;
  customer_portal_settings: {
    usage: { show: boolean };
    subscription: { update_seats: boolean; update_plan: boolean; pause?: boolean };
    customer?: { allow_email_change?: boolean };
  };
  dispute_settings: { auto_accept_below_amount: number | null };
};

export type CheckoutStatus = "open" | "expired" | "confirmed" | "succeeded" | "failed";

export type CheckoutRecord = Timestamps & {
  status: CheckoutStatus;
  client_secret: string;
  expires_at: string;
  success_url: string | null;
  return_url: string | null;
  embed_origin: string | null;
  product_ids: string[];
  product_id: string;
  product_price_id: string;
  custom_amount: number | null;
  seats: number | null;
  discount_id: string | null;
  allow_discount_codes: boolean;
  require_billing_address: boolean;
  allow_trial: boolean;
  trial_interval: RecurringInterval | null;
  trial_interval_count: number | null;
  customer_id: string | null;
  external_customer_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_billing_name: string | null;
  customer_billing_address: AddressRecord | null;
  customer_tax_id: string | null;
  is_business_customer: boolean;
  /** Set at confirmation as the provider does: `intent_status` is `succeeded`, or `requires_action` until the customer confirms. */
  payment_processor_metadata: Record<string, string>;
  metadata: Metadata;
  customer_metadata: Metadata;
  custom_field_data: Record<string, unknown>;
  subscription_id: string | null;
  customer_session_token: string | null;
};

export type SubscriptionStatus =
  "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid";

export type SubscriptionRecord = Timestamps & {
  amount: number;
  currency: string;
  recurring_interval: RecurringInterval;
  recurring_interval_count: number;
  status: SubscriptionStatus;
  current_period_start: string;
  current_period_end: string;
  trial_start: string | null;
  trial_end: string | null;
  cancel_at_period_end: boolean;
  canceled_at: string | null;
  started_at: string | null;
  ends_at: string | null;
  ended_at: string | null;
  past_due_at: string | null;
  customer_id: string;
  product_id: string;
  discount_id: string | null;
  /**
   * Where the current cycle's calendar starts when a change of billing interval restarted it (renewals keep its
   * day); null while the subscription keeps the calendar it started with.
   */
  cycle_anchor?: string | null;
  checkout_id: string | null;
  seats: number | null;
  customer_cancellation_reason: string | null;
  customer_cancellation_comment: string | null;
  metadata: Metadata;
  custom_field_data: Record<string, unknown>;
  price_ids: string[];
  /** The test card renewals are charged to: `tok_chargeDeclined` fails, the others pay. */
  card_token: string;
  /**
   * Items the next invoice bills on top of the period: proration of `prorate` changes, and a credit that an
   * invoice could not use up (a downgrade billed with `invoice`, or a credit larger than the invoice).
   */
  pending_proration: OrderItemRecord[];
};

export type OrderStatus = "pending" | "paid" | "refunded" | "partially_refunded" | "void";
export type BillingReason = "purchase" | "subscription_create" | "subscription_cycle" | "subscription_update";

export type OrderItemRecord = Timestamps & {
  label: string;
  amount: number;
  tax_amount: number;
  proration: boolean;
  product_price_id: string | null;
};

export type OrderRecord = Timestamps & {
  status: OrderStatus;
  paid: boolean;
  subtotal_amount: number;
  discount_amount: number;
  net_amount: number;
  tax_amount: number;
  total_amount: number;
  refunded_amount: number;
  refunded_tax_amount: number;
  currency: string;
  billing_reason: BillingReason;
  billing_name: string | null;
  billing_address: AddressRecord | null;
  invoice_number: string;
  customer_id: string;
  product_id: string | null;
  discount_id: string | null;
  subscription_id: string | null;
  checkout_id: string | null;
  metadata: Metadata;
  custom_field_data: Record<string, unknown>;
  seats: number | null;
  items: OrderItemRecord[];
  description: string;
};

export type RefundRecord = Timestamps & {
  metadata: Metadata;
  status: "pending" | "succeeded" | "failed" | "canceled";
  reason: "duplicate" | "fraudulent" | "customer_request" | "service_disruption" | "satisfaction_guarantee" | "other";
  amount: number;
  tax_amount: number;
  currency: string;
  order_id: string;
  subscription_id: string | null;
  customer_id: string;
  revoke_benefits: boolean;
  comment: string | null;
};

export type GrantRecord = Timestamps & {
  granted_at: string | null;
  revoked_at: string | null;
  is_granted: boolean;
  is_revoked: boolean;
  subscription_id: string | null;
  order_id: string | null;
  customer_id: string;
  benefit_id: string;
  properties: Record<string, unknown>;
};

export type FilterClause = {
  property: string;
  operator: "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "like" | "not_like";
  value: string | number | boolean;
};
export type Filter = { conjunction: "and" | "or"; clauses: (FilterClause | Filter)[] };
export type Aggregation = { func: "count" } | { func: "sum" | "max" | "min" | "avg" | "unique"; property: string };

export type MeterRecord = Timestamps & {
  metadata: Metadata;
  name: string;
  unit: "scalar" | "token" | "custom";
  custom_label: string | null;
  custom_multiplier: number | null;
  filter: Filter;
  aggregation: Aggregation;
  archived_at: string | null;
};

export type EventRecord = {
  id: string;
  timestamp: string;
  name: string;
  source: "user" | "system";
  customer_id: string | null;
  external_customer_id: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
};

export type CustomerSessionRecord = Timestamps & {
  token: string;
  expires_at: string;
  return_url: string | null;
  customer_id: string;
};

export type WebhookEndpointRecord = Timestamps & {
  url: string;
  name: string | null;
  format: "raw";
  secret: string;
  events: string[];
  enabled: boolean;
};

export type WebhookEventRecord = Timestamps & {
  endpoint_id: string;
  type: string;
  payload: string;
  /** null while delivery is pending; true once delivered; false once retries are exhausted. */
  succeeded: boolean | null;
  last_http_code: number | null;
  attempts: number;
  /** Real (not sandbox) epoch milliseconds: backoff runs on wall-clock time. */
  next_attempt_at: number;
};

export type WebhookDeliveryRecord = Timestamps & {
  webhook_event_id: string;
  succeeded: boolean;
  http_code: number | null;
  response: string | null;
};

export type RecordKinds = {
  product: ProductRecord;
  benefit: BenefitRecord;
  custom_field: CustomFieldRecord;
  discount: DiscountRecord;
  customer: CustomerRecord;
  checkout: CheckoutRecord;
  subscription: SubscriptionRecord;
  order: OrderRecord;
  refund: RefundRecord;
  grant: GrantRecord;
  meter: MeterRecord;
  event: EventRecord;
  customer_session: CustomerSessionRecord;
  payment_method: PaymentMethodRecord;
  webhook_endpoint: WebhookEndpointRecord;
  webhook_event: WebhookEventRecord;
  webhook_delivery: WebhookDeliveryRecord;
};
export type Kind = keyof RecordKinds;
