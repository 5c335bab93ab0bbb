import type { Kysely } from "kysely";
import {
  FREE_PLAN_LIMITS,
  type BillingMeter,
  type BillingOrder,
  type BillingOverview,
  type BillingRefund,
  type BillingSubscription,
  type ChangePreview,
  type CheckoutBody,
  type CheckoutProgress,
  type Entitlements,
  type LimitedResource,
  type Plan,
  type PlanCatalogue,
  type PlanLimits,
  type PlanPrice,
  type RefundBody,
  type SubscriptionChangeBody,
  type SubscriptionStatus,
  type UrlResponse,
  type UsageBody,
} from "../../../common/billing.schemas";
import { ERROR_CODES } from "../../../common/error-codes";
import { rolesAllow } from "../../../common/permissions";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { AppError } from "../../http/errors";
import type { Logger } from "../../logger";
import { callProvider, isNotFound, providerDetail, providerStatus, toProviderError, type models, type ProviderClient } from "./billing.provider";
import { recordAuditEvent, type AuditContext, type AuditEventInput } from "../audit";
import { lockOrganization } from "../organizations";
import * as repository from "./billing.repository";

/** What the module needs: the app's database, the provider client (null when billing is not configured), where the app is reachable. */
export type BillingDeps = {
  db: Kysely<Database>;
  provider: ProviderClient | null;
  baseUrl: string;
  logger: Logger;
  /** Wakes the billing worker: a webhook or usage record is waiting. */
  nudge: () => void;
};

type Subscription = models.Subscription;
type Product = models.Product;
type Order = models.Order;
type Checkout = models.Checkout;
type Refund = models.Refund;
type CustomerState = models.CustomerState;
/** What the projection keeps of any provider object: its id and the provider's timestamps. */
type ProviderObject = { id: string; created_at: string | Date; modified_at: string | Date | null };

/** Statuses whose subscription is still the organization's plan; canceled and incomplete_expired ones are history. */
const CURRENT_STATUSES: readonly SubscriptionStatus[] = ["incomplete", "trialing", "active", "past_due", "unpaid"];
/** Statuses a subscription can be changed in (a new checkout would be a second subscription). */
const CHANGEABLE_STATUSES: readonly SubscriptionStatus[] = ["trialing", "active", "past_due"];
const CATALOGUE_TTL_MS = 60_000;
const LAST_CHECKOUT_WINDOW_MS = 3_600_000;

export type Billing = ReturnType<typeof createBilling>;

/** The billing module's operations. Authorization (membership, the `billing` permission) happens in the routes. */
export function createBilling(deps: BillingDeps) {
  const { db, logger } = deps;
  let catalogue: { products: Product[]; at: number } | undefined;

  function provider(): ProviderClient {
    if (!deps.provider) throw new AppError(ERROR_CODES.SERVICE_UNAVAILABLE, "Billing is not configured on this deployment.");
    return deps.provider;
  }

  /** The provider's public, active products; cached for a minute, and the last copy is used while the provider is down. */
  async function products(): Promise<Product[]> {
    if (catalogue && Date.now() - catalogue.at < CATALOGUE_TTL_MS) return catalogue.products;
    try {
      const page = await provider().products.list({ is_archived: false, limit: 100 });
      const items = page.items.filter((product) => product.visibility === "public" && !product.is_archived);
      catalogue = { products: items, at: Date.now() };
      return items;
    } catch (error) {
      if (catalogue) return catalogue.products;
      throw toProviderError("list the plans", error);
    }
  }

  async function plans(): Promise<PlanCatalogue> {
    const items = await products();
    const families = new Map<string, Product[]>();
    for (const product of items) {
      const key = planKeyOf(product);
      families.set(key, [...(families.get(key) ?? []), product]);
    }
    const result: Plan[] = [];
    const free = families.get("free")?.[0];
    result.push(freePlan(free));
    // Plans in the order the merchant created them (the provider lists newest first).
    const byAge = [...families].sort(([, a], [, b]) => oldest(a).localeCompare(oldest(b)));
    for (const [key, family] of byAge) {
      if (key === "free") continue;
      const sorted = [...family].sort((a, b) => intervalRank(a.recurring_interval) - intervalRank(b.recurring_interval));
      const first = sorted[0] as Product;
      result.push({
        key,
        name: planNameOf(first),
        description: first.description,
        includes: [...new Set(sorted.flatMap((product) => product.benefits.map((benefit) => benefit.description)))],
        limits: limitsOf(first.benefits.map((benefit) => benefit.metadata)),
        prices: sorted.map(priceOf).filter((price): price is PlanPrice => price !== null),
      });
    }
    return { plans: result };
  }

  /** The paid product a checkout or plan change may use: one on the catalogue, never an arbitrary provider id. */
  async function offeredProduct(productId: string): Promise<Product> {
    const product = (await products()).find((candidate) => candidate.id === productId);
    if (!product || planKeyOf(product) === "free" || !priceOf(product)) {
      throw new AppError(ERROR_CODES.VALIDATION_ERROR, "Choose one of the plans on offer.");
    }
    return product;
  }

  async function currentSubscription(organizationId: string, database: Kysely<Database> = db): Promise<Subscription | undefined> {
    const subscriptions = await repository.listObjects<Subscription>(database, organizationId, "subscription", 20);
    return subscriptions.find((subscription) => CURRENT_STATUSES.includes(subscription.status as SubscriptionStatus));
  }

  async function changeableSubscription(organizationId: string): Promise<Subscription> {
    const subscription = await currentSubscription(organizationId);
    if (!subscription || !CHANGEABLE_STATUSES.includes(subscription.status as SubscriptionStatus)) {
      throw new AppError(ERROR_CODES.CONFLICT, "This organization has no subscription to change: choose a plan to subscribe.");
    }
    return subscription;
  }

  async function overview(organizationId: string, roles: string[]): Promise<BillingOverview> {
    const subscription = await currentSubscription(organizationId);
    const [customer, orders, used, checkouts] = await Promise.all([
      repository.findCustomer(db, organizationId),
      repository.listObjects<Order>(db, organizationId, "order", 24),
      repository.countSeatsUsed(db, organizationId),
      repository.listObjects<Checkout>(db, organizationId, "checkout", 1),
    ]);
    const state = stateOf(customer);
    const entitlements = entitlementsFrom(state, subscription);
    // Meter names come with the subscription: its product's metered prices, and its meters once usage was billed.
    const meteredPrices = (subscription?.product.prices ?? []) as unknown as Array<{ meter?: { id: string; name: string } }>;
    const meterNames = new Map([
      ...meteredPrices.flatMap((price) => (price.meter ? [[price.meter.id, price.meter.name] as const] : [])),
      ...(subscription?.meters ?? []).map((meter) => [meter.meter_id, meter.meter.name] as const),
    ]);
    const meters: BillingMeter[] = (state?.active_meters ?? []).map((meter) => ({
      meterId: meter.meter_id,
      name: meterNames.get(meter.meter_id) ?? "Usage",
      consumed: meter.consumed_units,
      credited: meter.credited_units,
      remaining: meter.balance,
    }));
    const lastCheckout = checkouts[0];
    return {
      plan: subscription
        ? { key: planKeyOf(subscription.product), name: planNameOf(subscription.product), productId: subscription.product_id }
        : freePlanSummary(),
      subscription: subscription ? toSubscription(subscription) : null,
      entitlements,
      seats: { used, limit: entitlements.limits.members },
      meters,
      orders: orders.map(toOrder),
      paymentMethod: customer?.payment_method ? (JSON.parse(customer.payment_method) as { brand: string; last4: string }) : null,
      canManage: rolesAllow(roles.join(","), { billing: ["manage"] }),
      syncedAt: customer?.synced_at ? new Date(customer.synced_at).toISOString() : null,
      lastCheckout:
        lastCheckout && Date.now() - new Date(lastCheckout.created_at).getTime() < LAST_CHECKOUT_WINDOW_MS
          ? await progressOf(organizationId, lastCheckout)
          : null,
    };
  }

  /** The organization's provider customer, created on first need and found again after a lost answer (idempotent). */
  async function ensureCustomer(organizationId: string): Promise<string> {
    const known = await repository.findCustomer(db, organizationId);
    if (known?.customer_id) return known.customer_id;
    const client = provider();
    const existing = await findProviderCustomer(organizationId);
    if (existing) return existing;
    const organization = await repository.findOrganization(db, organizationId);
    if (!organization) throw new AppError(ERROR_CODES.NOT_FOUND, "organization not found");
    try {
      const created = await client.customers.create({
        type: "team",
        external_id: organizationId,
        name: organization.name,
        metadata: { organization_id: organizationId },
      });
      await repository.saveCustomerId(db, organizationId, created.id);
      return created.id;
    } catch (error) {
      // Created by a request whose answer was lost, or by a concurrent one: the external id finds it.
      if (providerStatus(error) === 422) {
        const again = await findProviderCustomer(organizationId);
        if (again) return again;
      }
      throw toProviderError("create the billing customer", error);
    }
  }

  async function findProviderCustomer(organizationId: string): Promise<string | undefined> {
    try {
      const customer = await provider().customers.getExternal(organizationId);
      await repository.saveCustomerId(db, organizationId, customer.id);
      return customer.id;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw toProviderError("look up the billing customer", error);
    }
  }

  async function discountIdFor(code: string): Promise<string> {
    const page = await callProvider("check the discount code", () => provider().discounts.list({ query: code, limit: 100 }));
    const discount = page.items.find((candidate) => candidate.code?.toLowerCase() === code.toLowerCase());
    if (!discount)
      throw new AppError(ERROR_CODES.VALIDATION_ERROR, "That discount code is not valid.", {
        fieldErrors: { discountCode: ["That discount code is not valid."] },
      });
    return discount.id;
  }

  async function startCheckout(organizationId: string, body: CheckoutBody, audit: AuditContext): Promise<UrlResponse> {
    const product = await offeredProduct(body.productId);
    const current = await currentSubscription(organizationId);
    if (current && CHANGEABLE_STATUSES.includes(current.status as SubscriptionStatus)) {
      throw new AppError(ERROR_CODES.CONFLICT, "This organization already has a subscription: change its plan instead.");
    }
    const price = priceOf(product) as PlanPrice;
    let seats: number | undefined;
    if (price.perSeat) {
      const used = await repository.countSeatsUsed(db, organizationId);
      seats = body.seats ?? Math.max(price.minSeats ?? 1, used);
      assertSeats(seats, used, price);
    }
    const discountId = body.discountCode ? await discountIdFor(body.discountCode) : undefined;
    await ensureCustomer(organizationId);
    const billingPage = `${deps.baseUrl}/organizations/${encodeURIComponent(organizationId)}/settings/billing`;
    const checkout = await callProvider("start the checkout", () =>
      provider().checkouts.create({
        products: [product.id],
        external_customer_id: organizationId,
        success_url: `${billingPage}?checkout={CHECKOUT_ID}`,
        return_url: `${billingPage}?checkout=returned`,
        metadata: { organization_id: organizationId },
        allow_discount_codes: true,
        ...(discountId ? { discount_id: discountId } : {}),
        ...(seats !== undefined ? { seats } : {}),
      }),
    );
    await saveAudited("checkout", organizationId, checkout, audit, {
      action: "billing.checkout_started",
      organization: { id: organizationId },
      details: { plan: planNameOf(product), productId: product.id, ...(seats !== undefined ? { seats } : {}) },
    });
    return { url: checkout.url, redirect: true };
  }

  /** Where a checkout stands for its return page: "confirming" until the provider's webhook has reached the app. */
  async function checkoutProgress(organizationId: string, checkoutId: string): Promise<CheckoutProgress> {
    let checkout: Checkout;
    try {
      checkout = await provider().checkouts.get(checkoutId);
    } catch (error) {
      if (isNotFound(error)) throw new AppError(ERROR_CODES.NOT_FOUND, "checkout not found");
      throw toProviderError("read the checkout", error);
    }
    if (checkout.external_customer_id !== organizationId && checkout.metadata.organization_id !== organizationId) {
      throw new AppError(ERROR_CODES.NOT_FOUND, "checkout not found");
    }
    return progressOf(organizationId, checkout);
  }

  async function progressOf(organizationId: string, checkout: Checkout): Promise<CheckoutProgress> {
    const base = { id: checkout.id, productId: checkout.product_id ?? "" };
    if (checkout.status === "failed") return { ...base, state: "declined" };
    if (checkout.status === "expired") return { ...base, state: "expired" };
    if (checkout.status === "open") return { ...base, state: "open" };
    const subscriptions = await repository.listObjects<Subscription>(db, organizationId, "subscription", 20);
    const subscription = subscriptions.find((candidate) => candidate.checkout_id === checkout.id);
    // Complete once the page can show the whole new plan: the subscription, and the customer state that lists it
    // (its benefits and meters). A payment still needing action has no such state yet.
    const customer = subscription ? await repository.findCustomer(db, organizationId) : undefined;
    const state = stateOf(customer);
    const arrived =
      subscription !== undefined &&
      (subscription.status === "incomplete" || (state?.active_subscriptions ?? []).some((active) => active.id === subscription.id));
    return { ...base, state: arrived ? "completed" : "confirming" };
  }

  async function previewChange(organizationId: string, productId: string): Promise<ChangePreview> {
    const subscription = await changeableSubscription(organizationId);
    const product = await offeredProduct(productId);
    const price = priceOf(product) as PlanPrice;
    const newAmount = price.perSeat ? price.amount * (subscription.seats ?? price.minSeats ?? 1) : price.amount;
    const start = new Date(subscription.current_period_start).getTime();
    const end = new Date(subscription.current_period_end ?? subscription.current_period_start).getTime();
    const now = providerNow(subscription);
    const remaining = end > start ? Math.min(1, Math.max(0, (end - now) / (end - start))) : 0;
    return {
      productId,
      currency: price.currency,
      newAmount,
      // The provider's proration: the new price for the rest of the period, less the unused part of the current one.
      prorationAmount: Math.round(newAmount * remaining) - Math.round(subscription.amount * remaining),
      prorationBehavior: await prorationBehavior(product.organization_id),
      currentPeriodEnd: repository.isoText(subscription.current_period_end) as string,
    };
  }

  /** The provider's clock: the latest time it stamped on this subscription, or now (the sandbox's clock can run ahead). */
  function providerNow(subscription: Subscription): number {
    return Math.max(Date.now(), new Date(subscription.modified_at ?? subscription.created_at).getTime());
  }

  async function prorationBehavior(providerOrganizationId: string): Promise<"invoice" | "prorate"> {
    try {
      const organization = await provider().organizations.get(providerOrganizationId);
      return organization.subscription_settings.proration_behavior === "invoice" ? "invoice" : "prorate";
    } catch (error) {
      logger.warn("billing: could not read the provider's proration setting; assuming prorate", { error: providerDetail(error) ?? String(error) });
      return "prorate";
    }
  }

  async function changeSubscription(organizationId: string, roles: string[], body: SubscriptionChangeBody, audit: AuditContext): Promise<BillingOverview> {
    const subscription = await changeableSubscription(organizationId);
    const client = provider();
    let updated: Subscription;
    let event: Pick<AuditEventInput, "action" | "details">;
    if (body.productId !== undefined) {
      const product = await offeredProduct(body.productId);
      if (product.id === subscription.product_id) throw new AppError(ERROR_CODES.VALIDATION_ERROR, "The organization is already on this plan.");
      // The provider's plan change carries no seat count: moving between per-seat and flat pricing is a new subscription.
      if ((priceOf(product) as PlanPrice).perSeat !== (subscription.seats != null)) {
        throw new AppError(
          ERROR_CODES.VALIDATION_ERROR,
          `${planNameOf(product)} is priced differently (per seat or per organization): cancel the current subscription, then subscribe to ${planNameOf(product)} when it ends.`,
        );
      }
      updated = await callProvider("change the plan", () => client.subscriptions.update(subscription.id, { product_id: product.id }));
      event = { action: "billing.plan_changed", details: { from: planNameOf(subscription.product), to: planNameOf(product) } };
    } else if (body.seats !== undefined) {
      if (subscription.seats == null) throw new AppError(ERROR_CODES.VALIDATION_ERROR, "This plan is not priced per seat.");
      const used = await repository.countSeatsUsed(db, organizationId);
      const price = priceOf(subscription.product);
      assertSeats(body.seats, used, price);
      const seats = body.seats;
      updated = await callProvider("change the seats", () => client.subscriptions.update(subscription.id, { seats }));
      event = { action: "billing.seats_changed", details: { from: subscription.seats, to: seats } };
    } else if (body.cancelAtPeriodEnd === true) {
      updated = await callProvider("cancel the subscription", () =>
        client.subscriptions.update(subscription.id, {
          cancel_at_period_end: true,
          customer_cancellation_reason: body.cancellationReason ?? null,
          customer_cancellation_comment: body.cancellationComment ?? null,
        }),
      );
      event = { action: "billing.subscription_canceled", details: { reason: body.cancellationReason ?? null } };
    } else {
      if (!subscription.cancel_at_period_end) throw new AppError(ERROR_CODES.VALIDATION_ERROR, "The subscription is not set to cancel.");
      updated = await callProvider("resume the subscription", () => client.subscriptions.update(subscription.id, { cancel_at_period_end: false }));
      event = { action: "billing.subscription_resumed" };
    }
    await saveAudited("subscription", organizationId, updated, audit, {
      ...event,
      target: { type: "subscription", id: updated.id, label: planNameOf(updated.product) },
      organization: { id: organizationId },
    });
    return overview(organizationId, roles);
  }

  async function portal(organizationId: string): Promise<UrlResponse> {
    await ensureCustomer(organizationId);
    const session = await callProvider("open the billing portal", () =>
      provider().customerSessions.create({
        external_customer_id: organizationId,
        return_url: `${deps.baseUrl}/organizations/${encodeURIComponent(organizationId)}/settings/billing`,
      }),
    );
    return { url: session.customer_portal_url, redirect: true };
  }

  async function recordUsage(organizationId: string, body: UsageBody): Promise<{ id: string; duplicate: boolean }> {
    provider();
    const result = await repository.insertUsageEvent(db, { organizationId, key: body.key, eventName: body.meter, quantity: body.quantity });
    if (!result.duplicate) deps.nudge();
    return result;
  }

  /** Stores a provider object in the projection, unless a newer copy of it is stored already. */
  async function saveObject(kind: repository.ObjectKind, organizationId: string, object: ProviderObject, database: Kysely<Database> = db): Promise<void> {
    await repository.saveObject(database, {
      kind,
      id: object.id,
      organizationId,
      modifiedAt: (repository.isoText(object.modified_at) ?? repository.isoText(object.created_at)) as string,
      createdAt: repository.isoText(object.created_at) as string,
      data: object,
    });
  }

  /**
   * Stores the provider's answer to a change someone asked for, with its audit entry in the same transaction. The
   * provider has made the change by then; a failed call never gets here, so a refused change records nothing.
   */
  async function saveAudited(kind: repository.ObjectKind, organizationId: string, object: ProviderObject, audit: AuditContext, event: AuditEventInput) {
    await db.transaction().execute(async (trx) => {
      await saveObject(kind, organizationId, object, trx);
      await recordAuditEvent(trx, audit, event);
    });
  }

  async function refreshPaymentMethod(organizationId: string): Promise<void> {
    const page = await provider().customers.listPaymentMethodsExternal(organizationId);
    const card = page.items.find((method) => method.type === "card") as models.PaymentMethodCard | undefined;
    await repository.savePaymentMethod(db, organizationId, card ? { brand: card.method_metadata.brand, last4: card.method_metadata.last4 } : null);
  }

  /**
   * Re-reads the organization's state at the provider and stores it: customer state (benefits, meters),
   * subscriptions, orders and the card. Heals webhooks that never arrived; safe to run any time.
   */
  async function reconcile(organizationId: string): Promise<{ customer: boolean }> {
    const client = provider();
    const customerId = (await repository.findCustomer(db, organizationId))?.customer_id ?? (await findProviderCustomer(organizationId));
    if (!customerId) return { customer: false };
    let state: CustomerState;
    try {
      state = await client.customers.getStateExternal(organizationId);
    } catch (error) {
      if (isNotFound(error)) {
        await repository.forgetCustomer(db, organizationId);
        return { customer: false };
      }
      throw toProviderError("read the customer state", error);
    }
    await storeState(organizationId, state, undefined);
    const [subscriptions, orders] = await Promise.all([
      callProvider("list subscriptions", () => client.subscriptions.list({ external_customer_id: organizationId, limit: 100 })),
      callProvider("list orders", () => client.orders.list({ external_customer_id: organizationId, limit: 100 })),
    ]);
    for (const subscription of subscriptions.items) await saveObject("subscription", organizationId, subscription);
    for (const order of orders.items) await saveObject("order", organizationId, order);
    await callProvider("read the payment method", () => refreshPaymentMethod(organizationId));
    return { customer: true };
  }

  /**
   * Stores a customer state. A webhook's state carries the time it was sent (`at`) and is kept only when newer
   * than the stored one; a state read from the provider just now (no `at`) is the truth and always kept.
   */
  async function storeState(organizationId: string, state: CustomerState, at: string | undefined, database: Kysely<Database> = db): Promise<boolean> {
    const stored = await repository.findCustomer(database, organizationId);
    const storedAt = stored?.state_at ?? null;
    const stamp =
      at ??
      [storedAt, new Date().toISOString()]
        .filter((value): value is string => value !== null)
        .sort()
        .at(-1)!;
    if (at !== undefined && storedAt !== null && at < storedAt) return false;
    return repository.saveCustomerState(database, organizationId, { json: JSON.stringify(state), at: stamp, customerId: state.id });
  }

  /** Every organization with a provider customer, one after the other; a failure is logged and the rest go on. */
  async function reconcileAll(): Promise<{ reconciled: number; failed: number }> {
    let reconciled = 0;
    let failed = 0;
    for (const organizationId of await repository.listBilledOrganizationIds(db)) {
      try {
        await reconcile(organizationId);
        reconciled++;
      } catch (error) {
        failed++;
        logger.warn("billing: reconciliation failed", { organizationId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return { reconciled, failed };
  }

  async function refund(organizationId: string, body: RefundBody, audit: AuditContext): Promise<BillingRefund> {
    const order = await repository.findObject<Order>(db, organizationId, "order", body.orderId);
    if (!order) throw new AppError(ERROR_CODES.NOT_FOUND, "order not found");
    const refundable = order.total_amount - order.refunded_amount;
    const amount = body.amount ?? refundable;
    if (refundable <= 0) throw new AppError(ERROR_CODES.VALIDATION_ERROR, "This order has been refunded in full.");
    if (amount > refundable) throw new AppError(ERROR_CODES.VALIDATION_ERROR, `Refund at most ${refundable} (the amount not refunded yet).`);
    const created = await callProvider("refund the order", () =>
      provider().refunds.create({ order_id: order.id, reason: body.reason, amount, comment: body.comment ?? null, revoke_benefits: false }),
    );
    await saveAudited("refund", organizationId, created, audit, {
      action: "billing.refund_issued",
      target: { type: "order", id: order.id, label: order.invoice_number ?? order.id },
      organization: { id: organizationId },
      reason: body.comment ?? null,
      details: { amount, currency: order.currency, reason: body.reason },
    });
    await saveObject("order", organizationId, await callProvider("read the order", () => provider().orders.get(order.id)));
    return toRefund(created);
  }

  async function refunds(organizationId: string): Promise<BillingRefund[]> {
    return (await repository.listObjects<Refund>(db, organizationId, "refund", 100)).map(toRefund);
  }

  /**
   * The plan limit check: throws 403 with the reason when adding `adding` more of `resource` would pass the plan's
   * limit. `adding` may be read from the database: it is, like the count, under the organization's lock.
   */
  async function assertWithinLimit(
    organizationId: string,
    resource: LimitedResource,
    adding: number | ((trx: Kysely<Database>) => Promise<number>),
  ): Promise<void> {
    // Called from the billing rules, inside the transaction of the organization change they check. Concurrent
    // changes of one organization count one after the other: each sees what the ones before it wrote.
    const trx = await currentDatabase(db);
    await lockOrganization(trx, organizationId);
    const subscription = await currentSubscription(organizationId, trx);
    const { limits } = entitlementsFrom(stateOf(await repository.findCustomer(trx, organizationId)), subscription);
    const limit = limits[resource];
    if (limit === null) return;
    const used = resource === "members" ? await repository.countSeatsUsed(trx, organizationId) : await repository.countTeams(trx, organizationId);
    if (used + (typeof adding === "number" ? adding : await adding(trx)) <= limit) return;
    const plan = subscription ? planNameOf(subscription.product) : freePlanSummary().name;
    throw new AppError(
      ERROR_CODES.PLAN_LIMIT_REACHED,
      resource === "members"
        ? `The ${plan} plan includes ${limit} seats and all are used by members and pending invitations. Upgrade the plan or add seats to invite more.`
        : `The ${plan} plan includes ${limit} teams. Upgrade the plan to create more.`,
      { resource, limit, used },
    );
  }

  /**
   * Before an organization is deleted: its provider customer is deleted, which revokes its subscriptions, so
   * nothing goes on billing a deleted organization. If the provider cannot do it now, nothing is deleted.
   */
  async function releaseOrganization(organizationId: string): Promise<void> {
    const customer = await repository.findCustomer(await currentDatabase(db), organizationId);
    if (!customer?.customer_id) return;
    try {
      await provider().customers.deleteExternal(organizationId);
    } catch (error) {
      if (!isNotFound(error)) {
        const failure = toProviderError("end this organization's subscription", error);
        throw new AppError(failure.code, `${failure.message} The organization was not deleted.`);
      }
    }
  }

  /** Plan and status of several organizations (the admin list), from the stored subscriptions. */
  async function plansOf(organizationIds: string[]): Promise<Map<string, { plan: { key: string; name: string }; status: SubscriptionStatus | null }>> {
    const rows = await repository.listSubscriptionsOf<Subscription>(db, organizationIds);
    const result = new Map<string, { plan: { key: string; name: string }; status: SubscriptionStatus | null }>();
    const newestFirst = rows.sort((a, b) => String(b.data.created_at).localeCompare(String(a.data.created_at)));
    for (const { organizationId, data } of newestFirst) {
      if (result.has(organizationId) || !CURRENT_STATUSES.includes(data.status as SubscriptionStatus)) continue;
      result.set(organizationId, { plan: { key: planKeyOf(data.product), name: planNameOf(data.product) }, status: data.status as SubscriptionStatus });
    }
    return result;
  }

  return {
    plans,
    plansOf,
    overview,
    startCheckout,
    checkoutProgress,
    previewChange,
    changeSubscription,
    portal,
    recordUsage,
    reconcile,
    reconcileAll,
    refund,
    refunds,
    assertWithinLimit,
    releaseOrganization,
    storeState,
    saveObject,
    refreshPaymentMethod,
    provider,
  };
}

/** The customer state the provider last sent, if any. */
function stateOf(customer: { state: string | null } | undefined): CustomerState | undefined {
  return customer?.state ? (JSON.parse(customer.state) as CustomerState) : undefined;
}

/** Features and limits from the granted benefits' metadata; a per-seat plan's seats bound its members while it lasts. */
function entitlementsFrom(state: CustomerState | undefined, subscription: Subscription | undefined): Entitlements {
  const grants = state?.granted_benefits ?? [];
  const features = [...new Set(grants.map((grant) => grant.benefit_metadata.feature).filter((feature): feature is string => typeof feature === "string"))];
  const limits = limitsOf(grants.map((grant) => grant.benefit_metadata));
  if (subscription?.seats != null && CHANGEABLE_STATUSES.includes(subscription.status as SubscriptionStatus)) limits.members = subscription.seats;
  return { features, limits };
}

function assertSeats(seats: number, used: number, price: PlanPrice | null): void {
  if (price?.minSeats != null && seats < price.minSeats) throw new AppError(ERROR_CODES.VALIDATION_ERROR, `Choose at least ${price.minSeats} seats.`);
  if (price?.maxSeats != null && seats > price.maxSeats) throw new AppError(ERROR_CODES.VALIDATION_ERROR, `Choose at most ${price.maxSeats} seats.`);
  if (seats < used) {
    throw new AppError(
      ERROR_CODES.VALIDATION_ERROR,
      `Choose at least ${used} seats: members and pending invitations use ${used}. Remove members or cancel invitations first.`,
    );
  }
}

function planKeyOf(product: { metadata: Record<string, unknown>; id: string }): string {
  const plan = product.metadata.plan;
  return typeof plan === "string" && plan ? plan : product.id;
}

/** "Pro monthly" and "Pro yearly" are both the Pro plan. */
function planNameOf(product: { name: string }): string {
  return product.name.replace(/\s+(monthly|yearly)$/i, "");
}

function oldest(products: Product[]): string {
  return products.map((product) => repository.isoText(product.created_at) ?? "").sort()[0] ?? "";
}

function intervalRank(interval: string | null): number {
  return interval === "month" ? 0 : interval === "year" ? 1 : 2;
}

function freePlanSummary(): BillingOverview["plan"] {
  return { key: "free", name: "Free", productId: null };
}

function freePlan(product: Product | undefined): Plan {
  return {
    key: "free",
    name: product ? planNameOf(product) : "Free",
    description: product?.description ?? null,
    includes: [`Up to ${FREE_PLAN_LIMITS.members} members`, `Up to ${FREE_PLAN_LIMITS.teams} teams`],
    limits: { ...FREE_PLAN_LIMITS },
    prices: [],
  };
}

/** A benefit's metadata sets a limit with `limit_members` / `limit_teams`: a number, or "unlimited". The highest grant wins. */
function limitsOf(metadata: Array<Record<string, unknown>>): PlanLimits {
  const limits: PlanLimits = { ...FREE_PLAN_LIMITS };
  for (const resource of ["members", "teams"] as const) {
    const values = metadata.map((entry) => entry[`limit_${resource}`]).filter((value) => value !== undefined);
    if (values.length === 0) continue;
    if (values.some((value) => value === "unlimited")) limits[resource] = null;
    else {
      const numbers = values.map(Number).filter((value) => Number.isInteger(value) && value >= 0);
      if (numbers.length) limits[resource] = Math.max(...numbers);
    }
  }
  return limits;
}

/** The recurring price a plan is sold at: its fixed or per-seat price (a metered price rides along). */
function priceOf(product: Product): PlanPrice | null {
  const interval = product.recurring_interval;
  if (interval !== "month" && interval !== "year") return null;
  const prices = product.prices.filter((price) => !price.is_archived) as unknown as Array<
    Record<string, unknown> & { amount_type: string; price_currency: string }
  >;
  const metered = prices.find((price) => price.amount_type === "metered_unit");
  const meteredUnitAmount = metered ? String(metered.unit_amount) : null;
  const fixed = prices.find((price) => price.amount_type === "fixed");
  if (fixed) {
    return {
      productId: product.id,
      interval,
      amount: Number(fixed.price_amount),
      currency: fixed.price_currency,
      perSeat: false,
      minSeats: null,
      maxSeats: null,
      meteredUnitAmount,
    };
  }
  const seat = prices.find((price) => price.amount_type === "seat_based") as
    | { price_currency: string; seat_tiers: { tiers: Array<{ price_per_seat: number }>; minimum_seats?: number | null; maximum_seats?: number | null } }
    | undefined;
  if (seat) {
    return {
      productId: product.id,
      interval,
      amount: seat.seat_tiers.tiers[0]?.price_per_seat ?? 0,
      currency: seat.price_currency,
      perSeat: true,
      minSeats: seat.seat_tiers.minimum_seats ?? 1,
      maxSeats: seat.seat_tiers.maximum_seats ?? null,
      meteredUnitAmount,
    };
  }
  return null;
}

function toSubscription(subscription: Subscription): BillingSubscription {
  return {
    id: subscription.id,
    status: subscription.status as SubscriptionStatus,
    productId: subscription.product_id,
    recurringInterval: subscription.recurring_interval,
    amount: subscription.amount,
    currency: subscription.currency,
    currentPeriodStart: repository.isoText(subscription.current_period_start) as string,
    currentPeriodEnd: repository.isoText(subscription.current_period_end) as string,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: repository.isoText(subscription.canceled_at),
    endsAt: repository.isoText(subscription.ends_at),
    cancellationReason: subscription.customer_cancellation_reason ?? null,
    seats: subscription.seats ?? null,
    discountId: subscription.discount_id,
  };
}

function toOrder(order: Order): BillingOrder {
  return {
    id: order.id,
    createdAt: repository.isoText(order.created_at) as string,
    totalAmount: order.total_amount,
    refundedAmount: order.refunded_amount,
    currency: order.currency,
    status: order.status,
    billingReason: order.billing_reason,
    productName: order.product?.name ?? null,
    invoiceNumber: order.invoice_number ?? null,
  };
}

function toRefund(refund: Refund): BillingRefund {
  return {
    id: refund.id,
    orderId: refund.order_id,
    createdAt: repository.isoText(refund.created_at) as string,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
  };
}
