import type { ChangePreview, ChangePreviewQuery, PlanPrice } from "../../../../common/billing.schemas";
import { ERROR_CODES } from "../../../../common/error-codes";
import { DomainError } from "../../../../common/domain-error";
import { countSeats } from "../../organizations";
import { getOfferedProduct } from "../billing.catalogue";
import type { BillingContext } from "../billing.context";
import {
  assertSeats,
  discountTerms,
  initialSeats,
  periodAmount,
  priceOf,
  providerNow,
  quoteChange,
} from "../billing.pricing";
import { providerDetail, type models } from "../billing.provider";
import type { BillingScope } from "../billing.repository";
import { getChangeableSubscription } from "./find-current-subscription";

type Deps = Pick<BillingContext, "db" | "provider" | "catalogue" | "logger">;

/** The plan and seat count a change moves to; `productChanges` is false for a change of seats alone. */
export type ChangeTarget = { product: models.Product; price: PlanPrice; seats: number | null; productChanges: boolean };

/**
 * What a change asks for, checked: a plan on offer (any, per seat or not), and for a per-seat plan a seat count
 * within its bounds and not below the seats in use (the current count, or enough for everyone, when none is given).
 */
export async function resolveChange(
  deps: Pick<Deps, "db" | "catalogue">,
  scope: BillingScope,
  subscription: models.Subscription,
  asked: ChangePreviewQuery,
): Promise<ChangeTarget> {
  const productChanges = asked.productId !== undefined && asked.productId !== subscription.product_id;
  const product = productChanges
    ? await getOfferedProduct(deps.catalogue, asked.productId as string)
    : subscription.product;
  const price = priceOf(product);
  if (!price) throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "Choose one of the plans on offer.");
  if (!price.perSeat) {
    if (asked.seats !== undefined)
      throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "This plan is not priced per seat.");
    if (!productChanges)
      throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "The organization is already on this plan.");
    return { product, price, seats: null, productChanges };
  }
  const used = await countSeats(deps.db, scope);
  const seats = initialSeats(asked.seats ?? subscription.seats ?? undefined, used, price);
  assertSeats(seats, used, price);
  if (!productChanges && seats === subscription.seats)
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, `The plan already has ${seats} seat${seats === 1 ? "" : "s"}.`);
  return { product, price, seats, productChanges };
}

/** A product as an invoice line names it: with its seats when it is priced per seat. */
const productLabel = (product: models.Product, seats: number | null) =>
  seats == null ? product.name : `${product.name} (${seats} seat${seats === 1 ? "" : "s"})`;

/**
 * What a plan, interval or seat change will cost, before it is confirmed: the provider has no preview, so this is
 * its documented proration (billing.pricing.ts, `quoteChange`) applied to the stored subscription, with the
 * merchant's proration setting. The change then asks the provider for exactly this.
 */
export async function previewChange(
  deps: Deps,
  scope: BillingScope,
  asked: ChangePreviewQuery,
): Promise<ChangePreview> {
  const subscription = await getChangeableSubscription(deps.db, scope);
  const target = await resolveChange(deps, scope, subscription, asked);
  const quote = quoteChange({
    current: {
      amount: subscription.amount,
      interval: subscription.recurring_interval,
      label: productLabel(subscription.product, subscription.seats ?? null),
      periodStart: subscription.current_period_start,
      periodEnd: subscription.current_period_end ?? subscription.current_period_start,
      trialing: subscription.status === "trialing",
      firstBilled: new Date(subscription.trial_end ?? subscription.started_at ?? subscription.created_at),
    },
    target: {
      amount: periodAmount(target.price, target.seats),
      interval: target.price.interval,
      label: productLabel(target.product, target.seats),
    },
    behavior: await prorationBehavior(deps, target.product.organization_id),
    discount: discountTerms(subscription.discount),
    now: providerNow(subscription),
  });
  return { productId: target.product.id, seats: target.seats, currency: target.price.currency, ...quote };
}

/** The merchant's proration setting (`invoice` now, or `prorate` on the next invoice); `prorate` when unreadable. */
async function prorationBehavior(
  deps: Pick<Deps, "provider" | "logger">,
  merchantId: string,
): Promise<"invoice" | "prorate"> {
  try {
    const organization = await deps.provider().organizations.get(merchantId);
    return organization.subscription_settings.proration_behavior === "invoice" ? "invoice" : "prorate";
  } catch (error) {
    const detail = providerDetail(error) ?? String(error);
    deps.logger.warn("billing: could not read the provider's proration setting; assuming prorate", { error: detail });
    return "prorate";
  }
}
