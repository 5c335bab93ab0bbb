import type { ReactNode } from "react";
import type { BillingOrder } from "../../../../common/billing.schemas";
import { Badge } from "../../../components/ui/badge";
import { EmptyState } from "../../../components/ui/page";
import { Table } from "../../../components/ui/table";
import { billingReasonLabel, formatDate, formatMoney, orderStatus } from "./billing-format";

/**
 * Payments, newest first: date, what for, amount (and what was refunded of it), status, and a per-row action.
 * On a phone each payment is a block: what for and the amount, then the date and the status, then the action.
 */
export function OrdersTable({
  orders,
  action,
  label = "Payments",
}: {
  orders: BillingOrder[];
  action?: (order: BillingOrder) => ReactNode;
  label?: string;
}) {
  if (orders.length === 0)
    return <EmptyState title="No payments yet">Payments show here once a plan is paid for.</EmptyState>;
  return (
    <Table label={label} columns={["Date", "Description", "Amount", "Status", ...(action ? [""] : [])]}>
      {orders.map((order) => {
        const status = orderStatus(order.status);
        return (
          <tr key={order.id}>
            <td className="py-3 pr-4 whitespace-nowrap max-sm:col-start-1 max-sm:row-start-2 max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
              {formatDate(order.createdAt)}
            </td>
            <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1">
              <p className="font-medium">{billingReasonLabel(order.billingReason)}</p>
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                {[order.productName, order.invoiceNumber ? `Invoice ${order.invoiceNumber}` : null]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
            </td>
            <td className="py-3 pr-4 whitespace-nowrap max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right">
              <p className="font-medium">{formatMoney(order.totalAmount, order.currency)}</p>
              {order.refundedAmount > 0 ? (
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  {formatMoney(order.refundedAmount, order.currency)} refunded
                </p>
              ) : null}
            </td>
            <td className="py-3 pr-4 max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right">
              <Badge tone={status.tone}>{status.label}</Badge>
            </td>
            {action ? (
              <td className="py-3 text-right whitespace-nowrap max-sm:col-span-2 max-sm:row-start-3 max-sm:mt-1 max-sm:text-left">
                {action(order)}
              </td>
            ) : null}
          </tr>
        );
      })}
    </Table>
  );
}
