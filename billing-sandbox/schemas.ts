import { z } from "zod";

/** Request bodies of the provider's API (the subset the sandbox honours), validated like the provider does. */

export const metadataSchema = z.record(z.string().max(40), z.union([z.string().max(500), z.number(), z.boolean()]));
const interval = z.enum(["day", "week", "month", "year"]);

const currency = z.string().length(3).default("usd");
export const priceCreateSchema = z.discriminatedUnion("amount_type", [
  z.object({ amount_type: z.literal("fixed"), price_amount: z.number().int().min(0), price_currency: currency }),
  // The provider removed `free` and coerces it to a fixed price of zero.
  z.object({ amount_type: z.literal("free"), price_currency: currency }),
  z.object({
    amount_type: z.literal("custom"),
    price_currency: currency,
    minimum_amount: z.number().int().min(0).nullish(),
    maximum_amount: z.number().int().min(0).nullish(),
    preset_amount: z.number().int().min(0).nullish(),
  }),
  z.object({
    amount_type: z.literal("metered_unit"),
    price_currency: currency,
    meter_id: z.uuid(),
    unit_amount: z.union([z.number().min(0), z.string().regex(/^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$/)]),
    cap_amount: z.number().int().min(0).nullish(),
  }),
  z.object({
    amount_type: z.literal("seat_based"),
    price_currency: currency,
    seat_tiers: z.object({
      tiers: z
        .array(
          z.object({
            min_seats: z.number().int().min(1),
            max_seats: z.number().int().min(1).nullish(),
            price_per_seat: z.number().int().min(0),
          }),
        )
        .min(1),
      minimum_seats: z.number().int().min(1).optional(),
      maximum_seats: z.number().int().min(1).nullish(),
    }),
  }),
]);
export type PriceCreateInput = z.infer<typeof priceCreateSchema>;

const attachedCustomFieldsSchema = z.array(z.object({ custom_field_id: z.uuid(), required: z.boolean() }));

export const productCreateSchema = z.object({
  name: z.string().min(3),
  description: z.string().nullish(),
  visibility: z.enum(["draft", "private", "public"]).default("public"),
  recurring_interval: interval.nullish(),
  recurring_interval_count: z.number().int().min(1).max(999).nullish(),
  trial_interval: interval.nullish(),
  trial_interval_count: z.number().int().min(1).max(1000).nullish(),
  prices: z.array(priceCreateSchema).min(1),
  metadata: metadataSchema.default({}),
  attached_custom_fields: attachedCustomFieldsSchema.default([]),
  medias: z.array(z.uuid()).optional(),
});

export const productUpdateSchema = z.object({
  name: z.string().min(3).optional(),
  description: z.string().nullish(),
  visibility: z.enum(["draft", "private", "public"]).optional(),
  recurring_interval: interval.nullish(),
  recurring_interval_count: z.number().int().min(1).nullish(),
  trial_interval: interval.nullish(),
  trial_interval_count: z.number().int().min(1).nullish(),
  is_archived: z.boolean().nullish(),
  metadata: metadataSchema.optional(),
  prices: z.array(z.union([z.object({ id: z.uuid() }), priceCreateSchema])).optional(),
  attached_custom_fields: attachedCustomFieldsSchema.optional(),
});

export const benefitTypes = [
  "custom",
  "discord",
  "github_repository",
  "downloadables",
  "license_keys",
  "meter_credit",
  "feature_flag",
] as const;

/** Benefit properties per type, with the provider's defaults filled in so responses are complete. */
export const benefitPropertiesSchemas = {
  custom: z.object({
    note: z
      .string()
      .nullish()
      .transform((value) => value ?? null),
  }),
  // The provider keeps a bot token per guild; the sandbox has no Discord, so it stores a placeholder.
  discord: z
    .object({ guild_id: z.string(), role_id: z.string(), kick_member: z.boolean().default(false) })
    .transform((value) => ({ ...value, guild_token: "sandbox-guild-token" })),
  github_repository: z.object({
    repository_owner: z.string(),
    repository_name: z.string(),
    permission: z.enum(["pull", "triage", "push", "maintain", "admin"]),
  }),
  downloadables: z.object({ archived: z.record(z.string(), z.boolean()).default({}), files: z.array(z.uuid()).min(1) }),
  license_keys: z.object({
    prefix: z
      .string()
      .nullish()
      .transform((value) => value ?? null),
    expires: z
      .object({ ttl: z.number().int().min(1), timeframe: z.enum(["year", "month", "day"]) })
      .nullish()
      .transform((value) => value ?? null),
    activations: z
      .object({ limit: z.number().int().min(1).max(50), enable_customer_admin: z.boolean() })
      .nullish()
      .transform((value) => value ?? null),
    limit_usage: z
      .number()
      .int()
      .min(1)
      .nullish()
      .transform((value) => value ?? null),
  }),
  meter_credit: z.object({ units: z.number().int().min(1), rollover: z.boolean().default(false), meter_id: z.uuid() }),
  feature_flag: z.object({}).default({}),
} satisfies Record<(typeof benefitTypes)[number], z.ZodType>;

export const benefitCreateSchema = z.object({
  type: z.enum(benefitTypes),
  description: z.string().min(3).max(42),
  properties: z.record(z.string(), z.unknown()).default({}),
  metadata: metadataSchema.default({}),
});

export const benefitUpdateSchema = z.object({
  description: z.string().min(3).max(42).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
  metadata: metadataSchema.optional(),
});

export const customFieldCreateSchema = z.object({
  type: z.enum(["checkbox", "date", "number", "select", "text"]),
  slug: z
    .string()
    .min(1)
    .regex(/^[a-z0-9_-]+$/i),
  name: z.string().min(1),
  metadata: metadataSchema.default({}),
  properties: z.record(z.string(), z.unknown()).default({}),
});

const discountBase = {
  name: z.string().min(1),
  code: z
    .string()
    .min(3)
    .regex(/^[a-zA-Z0-9_-]+$/)
    .nullish(),
  starts_at: z.iso.datetime({ offset: true }).nullish(),
  ends_at: z.iso.datetime({ offset: true }).nullish(),
  max_redemptions: z.number().int().min(1).nullish(),
  duration: z.enum(["once", "forever", "repeating"]),
  duration_in_months: z.number().int().min(1).max(999).nullish(),
  products: z.array(z.uuid()).nullish(),
  metadata: metadataSchema.default({}),
};
export const discountCreateSchema = z.discriminatedUnion("type", [
  z.object({ ...discountBase, type: z.literal("percentage"), basis_points: z.number().int().min(1).max(10_000) }),
  z.object({
    ...discountBase,
    type: z.literal("fixed"),
    amount: z.number().int().min(1),
    currency: z.string().length(3).default("usd"),
  }),
]);

export const discountUpdateSchema = z.object({
  name: z.string().min(1).optional(),
  code: z.string().min(3).nullish(),
  starts_at: z.iso.datetime({ offset: true }).nullish(),
  ends_at: z.iso.datetime({ offset: true }).nullish(),
  max_redemptions: z.number().int().min(1).nullish(),
  metadata: metadataSchema.optional(),
});

const addressSchema = z.object({
  country: z.string().length(2),
  line1: z.string().nullish(),
  line2: z.string().nullish(),
  postal_code: z.string().nullish(),
  city: z.string().nullish(),
  state: z.string().nullish(),
});

const customerFields = {
  name: z.string().nullish(),
  external_id: z.string().min(1).nullish(),
  metadata: metadataSchema.default({}),
  billing_address: addressSchema.nullish(),
  tax_id: z.tuple([z.string(), z.string()]).nullish(),
  locale: z.string().nullish(),
};

/** CustomerIndividualCreate (the default; needs an e-mail address) | CustomerTeamCreate (the e-mail address is optional). */
export const customerCreateSchema = z.discriminatedUnion("type", [
  z.object({ ...customerFields, type: z.literal("individual").default("individual"), email: z.email() }),
  z.object({ ...customerFields, type: z.literal("team"), email: z.email().nullish() }),
]);

export const customerUpdateSchema = z.object({
  email: z.email().optional(),
  name: z.string().nullish(),
  external_id: z.string().min(1).nullish(),
  metadata: metadataSchema.optional(),
  billing_address: addressSchema.nullish(),
  tax_id: z.tuple([z.string(), z.string()]).nullish(),
  locale: z.string().nullish(),
});

export const checkoutCreateSchema = z.object({
  products: z.array(z.uuid()).min(1),
  external_customer_id: z.string().nullish(),
  customer_id: z.uuid().nullish(),
  customer_email: z.email().nullish(),
  customer_name: z.string().nullish(),
  customer_billing_name: z.string().nullish(),
  customer_billing_address: addressSchema.nullish(),
  customer_tax_id: z.string().nullish(),
  customer_metadata: metadataSchema.default({}),
  is_business_customer: z.boolean().default(false),
  metadata: metadataSchema.default({}),
  custom_field_data: z.record(z.string(), z.unknown()).default({}),
  discount_id: z.uuid().nullish(),
  allow_discount_codes: z.boolean().default(true),
  require_billing_address: z.boolean().default(false),
  amount: z.number().int().min(0).nullish(),
  seats: z.number().int().min(1).nullish(),
  allow_trial: z.boolean().default(true),
  trial_interval: interval.nullish(),
  trial_interval_count: z.number().int().min(1).max(1000).nullish(),
  success_url: z.url().nullish(),
  return_url: z.url().nullish(),
  embed_origin: z.string().nullish(),
});

/** CheckoutUpdatePublic, and CheckoutConfirmStripe (the same plus the card token). */
export const checkoutClientUpdateSchema = z.object({
  product_id: z.uuid().nullish(),
  product_price_id: z.uuid().nullish(),
  amount: z.number().int().min(0).nullish(),
  seats: z.number().int().min(1).nullish(),
  customer_name: z.string().nullish(),
  customer_email: z.email().nullish(),
  customer_billing_name: z.string().nullish(),
  customer_billing_address: addressSchema.nullish(),
  customer_tax_id: z.string().nullish(),
  is_business_customer: z.boolean().nullish(),
  custom_field_data: z.record(z.string(), z.unknown()).optional(),
  discount_code: z.string().nullish(),
});
export const checkoutConfirmSchema = checkoutClientUpdateSchema.extend({ confirmation_token_id: z.string().nullish() });

/** The organization may also change metadata and the discount of an open checkout. */
export const checkoutUpdateSchema = checkoutClientUpdateSchema.extend({
  metadata: metadataSchema.optional(),
  customer_metadata: metadataSchema.optional(),
  discount_id: z.uuid().nullish(),
});

const prorationBehaviorSchema = z.enum(["invoice", "prorate"]);

export const subscriptionUpdateSchema = z.union([
  z.object({ revoke: z.literal(true) }),
  z.object({
    cancel_at_period_end: z.boolean(),
    customer_cancellation_reason: z
      .enum([
        "customer_service",
        "low_quality",
        "missing_features",
        "switched_service",
        "too_complex",
        "too_expensive",
        "unused",
        "other",
      ])
      .nullish(),
    customer_cancellation_comment: z.string().nullish(),
  }),
  z.object({ product_id: z.uuid(), proration_behavior: prorationBehaviorSchema.nullish() }),
  // SubscriptionUpdateSeats: the bounds come from the seat-based price, so the service checks them.
  z.object({ seats: z.number().int(), proration_behavior: prorationBehaviorSchema.nullish() }),
  z.object({ metadata: metadataSchema }),
]);

export const customerEmailSettingNames = [
  "order_confirmation",
  "payment_method_expiration_reminder",
  "subscription_cancellation",
  "subscription_confirmation",
  "subscription_cycled",
  "subscription_cycled_after_trial",
  "subscription_past_due",
  "subscription_paused",
  "subscription_resumed",
  "subscription_renewal_reminder",
  "subscription_revoked",
  "subscription_trial_conversion_reminder",
  "subscription_uncanceled",
  "subscription_updated",
] as const;

/**
 * OrganizationUpdate. Settings objects are whole, as the provider requires; the sandbox applies only the proration
 * behaviors it implements (`invoice`, `prorate`), so `next_period` is refused.
 */
export const organizationUpdateSchema = z.object({
  name: z.string().min(3).nullish(),
  avatar_url: z.url().nullish(),
  email: z.email().nullish(),
  website: z.url().nullish(),
  socials: z
    .array(
      z.object({
        platform: z.enum([
          "x",
          "github",
          "facebook",
          "instagram",
          "youtube",
          "tiktok",
          "linkedin",
          "threads",
          "discord",
          "other",
        ]),
        url: z.url(),
      }),
    )
    .nullish(),
  country: z.string().length(2).nullish(),
  feature_settings: z
    .object({
      seat_based_pricing_enabled: z.boolean().optional(),
      member_model_enabled: z.boolean().optional(),
      checkout_localization_enabled: z.boolean().optional(),
      overview_metrics: z.array(z.string()).nullish(),
    })
    .nullish(),
  subscription_settings: z
    .object({
      allow_multiple_subscriptions: z.boolean(),
      proration_behavior: prorationBehaviorSchema,
      benefit_revocation_grace_period: z.number().int().min(0),
      prevent_trial_abuse: z.boolean(),
      allow_customer_updates: z.boolean(),
    })
    .nullish(),
  customer_email_settings: z
    .object(
      Object.fromEntries(customerEmailSettingNames.map((name) => [name, z.boolean()])) as Record<string, z.ZodBoolean>,
    )
    .nullish(),
  customer_portal_settings: z
    .object({
      usage: z.object({ show: z.boolean() }),
      subscription: z.object({ update_seats: z.boolean(), update_plan: z.boolean(), pause: z.boolean().optional() }),
      customer: z.object({ allow_email_change: z.boolean().optional() }).optional(),
    })
    .nullish(),
  dispute_settings: z.object({ auto_accept_below_amount: z.number().int().min(1).max(10_000).nullish() }).nullish(),
  embed_hosts: z.array(z.string()).nullish(),
  default_presentment_currency: z
    .string()
    .regex(/^[a-z]{3}$/)
    .nullish(),
  default_tax_behavior: z.enum(["location", "inclusive", "exclusive"]).nullish(),
  sso_enforced: z.boolean().nullish(),
});

export const refundCreateSchema = z.object({
  order_id: z.uuid(),
  reason: z.enum([
    "duplicate",
    "fraudulent",
    "customer_request",
    "service_disruption",
    "satisfaction_guarantee",
    "other",
  ]),
  amount: z.number().int().min(1),
  comment: z.string().nullish(),
  revoke_benefits: z.boolean().default(false),
  metadata: metadataSchema.default({}),
});

const filterClauseSchema = z.object({
  property: z.string().min(1),
  operator: z.enum(["eq", "ne", "gt", "gte", "lt", "lte", "like", "not_like"]),
  value: z.union([z.string().max(1000), z.number().int(), z.boolean()]),
});
type FilterInput = { conjunction: "and" | "or"; clauses: (z.infer<typeof filterClauseSchema> | FilterInput)[] };
export const filterSchema: z.ZodType<FilterInput> = z.lazy(() =>
  z.object({ conjunction: z.enum(["and", "or"]), clauses: z.array(z.union([filterClauseSchema, filterSchema])) }),
);

export const aggregationSchema = z.union([
  z.object({ func: z.literal("count") }),
  z.object({ func: z.enum(["sum", "max", "min", "avg", "unique"]), property: z.string().min(1) }),
]);

export const meterCreateSchema = z.object({
  name: z.string().min(3),
  filter: filterSchema,
  aggregation: aggregationSchema,
  unit: z.enum(["scalar", "token", "custom"]).default("scalar"),
  custom_label: z.string().nullish(),
  custom_multiplier: z.number().int().min(1).nullish(),
  metadata: metadataSchema.default({}),
});

export const meterUpdateSchema = z.object({
  name: z.string().min(3).optional(),
  filter: filterSchema.optional(),
  aggregation: aggregationSchema.optional(),
  is_archived: z.boolean().nullish(),
  metadata: metadataSchema.optional(),
});

export const eventsIngestSchema = z.object({
  events: z.array(
    z.object({
      name: z.string().min(1).max(128),
      external_customer_id: z.string().nullish(),
      customer_id: z.uuid().nullish(),
      timestamp: z.iso.datetime({ offset: true }).nullish(),
      external_id: z.string().nullish(),
      metadata: z.record(z.string(), z.unknown()).default({}),
    }),
  ),
});

export const customerSessionCreateSchema = z.union([
  z.object({ customer_id: z.uuid(), return_url: z.url().nullish() }),
  z.object({ external_customer_id: z.string().min(1), return_url: z.url().nullish() }),
]);

export const webhookEventTypes = [
  "checkout.created",
  "checkout.updated",
  "checkout.expired",
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "customer.state_changed",
  "customer_seat.assigned",
  "customer_seat.claimed",
  "customer_seat.revoked",
  "member.created",
  "member.updated",
  "member.deleted",
  "order.created",
  "order.updated",
  "order.paid",
  "order.refunded",
  "subscription.created",
  "subscription.updated",
  "subscription.active",
  "subscription.canceled",
  "subscription.uncanceled",
  "subscription.cycled",
  "subscription.revoked",
  "subscription.past_due",
  "subscription.paused",
  "subscription.resumed",
  "refund.created",
  "refund.updated",
  "product.created",
  "product.updated",
  "discount.created",
  "discount.updated",
  "discount.deleted",
  "organization.updated",
  "benefit.created",
  "benefit.updated",
  "benefit_grant.created",
  "benefit_grant.updated",
  "benefit_grant.cycled",
  "benefit_grant.revoked",
] as const;

export const webhookEndpointCreateSchema = z.object({
  url: z.url(),
  name: z.string().nullish(),
  secret: z.string().min(8).nullish(),
  format: z.literal("raw").default("raw"),
  events: z.array(z.enum(webhookEventTypes)),
});

export const webhookEndpointUpdateSchema = z.object({
  url: z.url().optional(),
  name: z.string().nullish(),
  secret: z.string().min(8).nullish(),
  events: z.array(z.enum(webhookEventTypes)).optional(),
  enabled: z.boolean().optional(),
});
