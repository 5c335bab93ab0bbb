import { z } from "zod";
import { idSchema } from "./account.schemas";
import { requiredReasonSchema } from "./reason.schemas";

/**
 * The app's billing contract: request schemas (the server validates with them, the web's forms use the same)
 * and the response shapes of `/api/billing/*` and `/api/organizations/{id}/billing*`. The organization is the
 * billing customer; amounts are integers in the currency's minor unit (cents).
 */

/** The spec's lists (section 4). */
export const SUBSCRIPTION_STATUSES = [
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const ORDER_STATUSES = ["pending", "paid", "refunded", "partially_refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const BILLING_REASONS = [
  "purchase",
  "subscription_create",
  "subscription_cycle",
  "subscription_update",
] as const;
export type BillingReason = (typeof BILLING_REASONS)[number];
export const CANCELLATION_REASONS = [
  "customer_service",
  "low_quality",
  "missing_features",
  "switched_service",
  "too_complex",
  "too_expensive",
  "unused",
  "other",
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];
export const REFUND_REASONS = [
  "duplicate",
  "fraudulent",
  "customer_request",
  "service_disruption",
  "satisfaction_guarantee",
  "other",
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
export const RECURRING_INTERVALS = ["month", "year"] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];

/** Limits an organization's plan sets; `null` is unlimited. */
export const LIMITED_RESOURCES = ["members", "teams"] as const;
export type LimitedResource = (typeof LIMITED_RESOURCES)[number];
export type PlanLimits = Record<LimitedResource, number | null>;

/** The free plan every organization starts on, without a checkout. Paid plans' limits come from granted benefits. */
export const FREE_PLAN_LIMITS: PlanLimits = { members: 10, teams: 5 };

/** Usage meter event names: what the provider's meters filter on. */
export const USAGE_EVENT_NAME_PATTERN = /^[a-z][a-z0-9_.-]*$/;
export const USAGE_MAX_QUANTITY = 1_000_000;
/** Idempotency keys of usage records: what a job id, a UUID or `order:42` needs, nothing a log or URL must escape. */
const USAGE_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

const productIdSchema = idSchema.min(1, "Choose a plan");
/** The most seats any request may ask for; a plan's own maximum (its price's) may be lower. */
export const SEATS_MAX = 1000;
const seatsSchema = z
  .number()
  .int("Seats must be a whole number")
  .min(1, "Use at least 1 seat")
  .max(SEATS_MAX, `Use at most ${SEATS_MAX} seats`);

export const checkoutBodySchema = z.object({
  productId: productIdSchema,
  discountCode: z.string().trim().max(64, "Use at most 64 characters").optional(),
  seats: seatsSchema.optional(),
});
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

/** One change per request: a plan (with its seat count when it is priced per seat), a seat count, or cancel/resume. */
export const subscriptionChangeBodySchema = z
  .object({
    productId: productIdSchema.optional(),
    seats: seatsSchema.optional(),
    cancelAtPeriodEnd: z.boolean().optional(),
    cancellationReason: z
      .enum(CANCELLATION_REASONS, { error: `Use one of: ${CANCELLATION_REASONS.join(", ")}` })
      .optional(),
    cancellationComment: z.string().trim().max(500, "Use at most 500 characters").optional(),
  })
  .refine(
    (body) => (body.cancelAtPeriodEnd === undefined) === (body.productId !== undefined || body.seats !== undefined),
    "Send productId (with seats for a per-seat plan), seats, or cancelAtPeriodEnd",
  )
  .refine((body) => body.cancellationReason === undefined || body.cancelAtPeriodEnd === true, {
    message: "A cancellation reason goes with cancelAtPeriodEnd: true",
    path: ["cancellationReason"],
  });
export type SubscriptionChangeBody = z.infer<typeof subscriptionChangeBodySchema>;

/** A plan (with seats for a per-seat plan), or seats alone for the current plan. */
export const changePreviewQuerySchema = z
  .object({
    productId: productIdSchema.optional(),
    seats: z.coerce.number({ error: "Seats must be a whole number" }).pipe(seatsSchema).optional(),
  })
  .refine((query) => query.productId !== undefined || query.seats !== undefined, "Send productId, seats or both");
export type ChangePreviewQuery = z.infer<typeof changePreviewQuerySchema>;

export const usageBodySchema = z.object({
  meter: z
    .string()
    .min(1, "Name the meter's event")
    .max(128, "Use at most 128 characters")
    .regex(USAGE_EVENT_NAME_PATTERN, "Use lower-case letters, digits, _ . -"),
  quantity: z
    .number()
    .int("Quantity must be a whole number")
    .min(1, "Quantity must be at least 1")
    .max(USAGE_MAX_QUANTITY, `Quantity must be at most ${USAGE_MAX_QUANTITY}`),
  key: z.string().regex(USAGE_KEY_PATTERN, "Use 1 to 128 letters, digits or _ . : - as the idempotency key").optional(),
});
export type UsageBody = z.infer<typeof usageBodySchema>;

export const refundBodySchema = z.object({
  orderId: idSchema.min(1, "Choose an order"),
  /** Cents; the whole refundable amount when omitted. */
  amount: z.number().int("Amount must be whole cents").min(1, "Refund at least 1 cent").optional(),
  reason: z.enum(REFUND_REASONS, { error: `Use one of: ${REFUND_REASONS.join(", ")}` }),
  /** Why, in the operator's words: required, it goes into the audit log (and to the provider with the refund). */
  comment: requiredReasonSchema,
});
export type RefundBody = z.infer<typeof refundBodySchema>;

/** When an operator's cancellation takes effect: at the end of the paid period, or now (the provider revokes it). */
export const OPERATOR_CANCELLATION_TIMINGS = ["period_end", "now"] as const;
export type OperatorCancellationTiming = (typeof OPERATOR_CANCELLATION_TIMINGS)[number];
/** A platform admin ends an organization's subscription (when nobody in it can), with the reason for the audit log. */
export const operatorCancellationBodySchema = z.object({
  when: z.enum(OPERATOR_CANCELLATION_TIMINGS, { error: `Use one of: ${OPERATOR_CANCELLATION_TIMINGS.join(", ")}` }),
  reason: requiredReasonSchema,
});
export type OperatorCancellationBody = z.infer<typeof operatorCancellationBodySchema>;

export const checkoutParamsSchema = z.object({ organizationId: idSchema, checkoutId: idSchema });

// Responses

export type PlanPrice = {
  productId: string;
  interval: RecurringInterval;
  /** Fixed price per period, or the price of one seat for per-seat plans. */
  amount: number;
  currency: string;
  perSeat: boolean;
  minSeats: number | null;
  maxSeats: number | null;
  /** Usage billed on top: cents per unit above the credited units, as a decimal string. */
  meteredUnitAmount: string | null;
};

export type Plan = {
  /** The plan family ("free", "pro", "team"): products' `plan` metadata. */
  key: string;
  name: string;
  description: string | null;
  /** What the plan includes, as shown: its benefits' descriptions. */
  includes: string[];
  limits: PlanLimits;
  prices: PlanPrice[];
};

export type PlanCatalogue = { plans: Plan[] };

export type Entitlements = { features: string[]; limits: PlanLimits };

export type BillingSubscription = {
  id: string;
  status: SubscriptionStatus;
  productId: string;
  recurringInterval: string;
  amount: number;
  currency: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  /** When access ends for a canceled or ending subscription. */
  endsAt: string | null;
  cancellationReason: string | null;
  seats: number | null;
  discountId: string | null;
  /** The subscription's discount, and whether it still covers the next invoice (a repeating one lapses). */
  discount: { name: string; appliesToNextInvoice: boolean } | null;
};

export type BillingOrder = {
  id: string;
  createdAt: string;
  totalAmount: number;
  refundedAmount: number;
  currency: string;
  status: string;
  billingReason: string;
  productName: string | null;
  invoiceNumber: string | null;
};

/**
 * A meter this period. `consumed` includes what was recorded and not yet counted by the provider (the app's running
 * count); `overageEstimate` is what the usage above `credited` adds to the next invoice so far, in the minor unit of
 * the subscription's currency (null when the plan has no price for the meter).
 */
export type BillingMeter = {
  meterId: string;
  name: string;
  consumed: number;
  credited: number;
  remaining: number;
  overageEstimate: number | null;
};

export type BillingOverview = {
  plan: { key: string; name: string; productId: string | null };
  subscription: BillingSubscription | null;
  entitlements: Entitlements;
  seats: { used: number; limit: number | null };
  meters: BillingMeter[];
  orders: BillingOrder[];
  paymentMethod: { brand: string; last4: string } | null;
  /** Whether the caller's role may start checkouts, change, cancel, resume, change seats or open the portal. */
  canManage: boolean;
  /** The last time the provider's state reached the app (a webhook or a reconciliation), if ever. */
  syncedAt: string | null;
  /** The organization's most recent checkout of the last hour, so a return from the hosted page can say how it went. */
  lastCheckout: CheckoutProgress | null;
};

/** A checkout started from Atrium, as its return page follows it. */
export type CheckoutProgress = {
  id: string;
  /** `confirming`: paid at the provider, waiting for its webhook to reach Atrium. */
  state: "open" | "confirming" | "completed" | "declined" | "expired";
  productId: string;
};

/** One line of a change's price: what is charged (positive) or credited (negative), now or on the next invoice. */
export type ChangePreviewLine = { label: string; amount: number; on: "now" | "nextInvoice" };

/**
 * What a plan or seat change costs, before it is confirmed; the provider then charges exactly this. Cents.
 * `nextInvoice` is the next regular charge after the change (usage above the plan's credits comes on top).
 */
export type ChangePreview = {
  productId: string;
  seats: number | null;
  currency: string;
  /** Charged when the change is confirmed (0 when nothing is, e.g. a credit kept for the next invoice). */
  dueNow: number;
  nextInvoice: { amount: number; date: string };
  /** The subscription's discount, and whether it still applies to the next invoice. */
  discount: { name: string; carriesOver: boolean } | null;
  lines: ChangePreviewLine[];
};

export type UrlResponse = { url: string; redirect: true };

export type BillingRefund = {
  id: string;
  orderId: string;
  createdAt: string;
  amount: number;
  currency: string;
  status: string;
  reason: string;
};

export type AdminOrganizationBilling = {
  organization: { id: string; name: string; slug: string };
  overview: BillingOverview;
  refunds: BillingRefund[];
};
