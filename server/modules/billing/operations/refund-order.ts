import type { BillingRefund, RefundBody } from "../../../../common/billing.schemas";
import { ERROR_CODES } from "../../../../common/error-codes";
import { DomainError } from "../../../../common/domain-error";
import type { AuditContext } from "../../audit";
import type { BillingContext } from "../billing.context";
import { toRefund } from "../billing.projection";
import { callProvider, type models } from "../billing.provider";
import * as repository from "../billing.repository";
import { saveAudited, saveProviderObject } from "./save-provider-object";

/** Refunds (part of) one of the organization's orders at the provider, at most what is not refunded yet. */
export async function refundOrder(
  deps: Pick<BillingContext, "db" | "provider">,
  scope: repository.BillingScope,
  body: RefundBody,
  audit: AuditContext,
): Promise<BillingRefund> {
  const order = await repository.findObject<models.Order>(deps.db, scope, "order", body.orderId);
  if (!order) throw new DomainError(ERROR_CODES.NOT_FOUND, "order not found");
  const refundable = order.total_amount - order.refunded_amount;
  const amount = body.amount ?? refundable;
  if (refundable <= 0) throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "This order has been refunded in full.");
  if (amount > refundable) {
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, `Refund at most ${refundable} (the amount not refunded yet).`);
  }
  const comment = body.comment;
  const created = await callProvider("refund the order", () =>
    deps
      .provider()
      .refunds.create({ order_id: order.id, reason: body.reason, amount, comment, revoke_benefits: false }),
  );
  await saveAudited(deps.db, scope, { kind: "refund", object: created }, audit, {
    action: "billing.refund_issued",
    target: { type: "order", id: order.id, label: order.invoice_number ?? order.id },
    organization: { id: scope.organizationId },
    reason: comment,
    details: { amount, currency: order.currency, reason: body.reason },
  });
  const refreshed = await callProvider("read the order", () => deps.provider().orders.get(order.id));
  await saveProviderObject(deps.db, scope, "order", refreshed);
  return toRefund(created);
}
