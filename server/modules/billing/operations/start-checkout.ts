import type { CheckoutBody, PlanPrice, UrlResponse } from "../../../../common/billing.schemas";
import { ERROR_CODES } from "../../../../common/error-codes";
import { DomainError } from "../../../../common/domain-error";
import type { AuditContext } from "../../audit";
import { countSeats } from "../../organizations";
import { getOfferedProduct } from "../billing.catalogue";
import { billingPageUrl, type BillingContext } from "../billing.context";
import { isChangeable, planNameOf } from "../billing.entitlements";
import { assertSeats, initialSeats, priceOf } from "../billing.pricing";
import { callProvider } from "../billing.provider";
import type { BillingScope } from "../billing.repository";
import { ensureCustomer } from "./ensure-customer";
import { findCurrentSubscription } from "./find-current-subscription";
import { saveAudited } from "./save-provider-object";

type Deps = Pick<BillingContext, "db" | "provider" | "catalogue" | "baseUrl">;

/** Starts the provider's hosted checkout of a plan for an organization with no subscription; answers where to go. */
export async function startCheckout(
  deps: Deps,
  scope: BillingScope,
  body: CheckoutBody,
  audit: AuditContext,
): Promise<UrlResponse> {
  const { organizationId } = scope;
  const product = await getOfferedProduct(deps.catalogue, body.productId);
  const current = await findCurrentSubscription(deps.db, scope);
  if (current && isChangeable(current)) {
    throw new DomainError(
      ERROR_CODES.CONFLICT,
      "This organization already has a subscription: change its plan instead.",
    );
  }
  const price = priceOf(product) as PlanPrice;
  let seats: number | undefined;
  if (price.perSeat) {
    const used = await countSeats(deps.db, scope);
    seats = initialSeats(body.seats, used, price);
    assertSeats(seats, used, price);
  }
  const discountId = body.discountCode ? await findDiscountId(deps, body.discountCode) : undefined;
  await ensureCustomer(deps, scope);
  const billingPage = billingPageUrl(deps.baseUrl, organizationId);
  const checkout = await callProvider("start the checkout", () =>
    deps.provider().checkouts.create({
      products: [product.id],
      external_customer_id: organizationId,
      success_url: `${billingPage}?checkout={CHECKOUT_ID}`,
      return_url: `${billingPage}?checkout=returned`,
      metadata: { organization_id: organizationId },
      allow_discount_codes: true,
      // The hosted page starts with the address of the person paying (a signed-in actor's label is their e-mail).
      ...(audit.actor.id ? { customer_email: audit.actor.label } : {}),
      ...(discountId ? { discount_id: discountId } : {}),
      ...(seats !== undefined ? { seats } : {}),
    }),
  );
  await saveAudited(deps.db, scope, { kind: "checkout", object: checkout }, audit, {
    action: "billing.checkout_started",
    organization: { id: organizationId },
    details: { plan: planNameOf(product), productId: product.id, ...(seats !== undefined ? { seats } : {}) },
  });
  return { url: checkout.url, redirect: true };
}

/** The provider's id of a discount code (case-insensitive); 422 on the field when there is no such code. */
async function findDiscountId(deps: Pick<BillingContext, "provider">, code: string): Promise<string> {
  const page = await callProvider("check the discount code", () =>
    deps.provider().discounts.list({ query: code, limit: 100 }),
  );
  const discount = page.items.find((candidate) => candidate.code?.toLowerCase() === code.toLowerCase());
  if (!discount) {
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "That discount code is not valid.", {
      fieldErrors: { discountCode: ["That discount code is not valid."] },
    });
  }
  return discount.id;
}
