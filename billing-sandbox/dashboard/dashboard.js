// The sandbox dashboard: reads the provider API lists and the clock control, all through relative
// URLs so it works at the sandbox root and mounted under the app.
import { cell, dateTime, fillTable, money, words } from "../layout/format.js";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "billing-sandbox-token";
$("token").value = sessionStorage.getItem(TOKEN_KEY) ?? "";

async function api(method, path, body) {
  const token = $("token").value.trim() || "sandbox";
  const response = await fetch(new URL(path, window.location.href), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
  return response.status === 202 || response.status === 204 ? null : response.json();
}

function describePrice(price) {
  if (price.amount_type === "fixed") return money(price.price_amount, price.price_currency);
  if (price.amount_type === "seat_based")
    return `${money(price.seat_tiers.tiers[0].price_per_seat, price.price_currency)} / seat`;
  if (price.amount_type === "metered_unit") return `${price.unit_amount}¢ / ${price.meter.name}`;
  return "pay what you want";
}

/** An incomplete subscription's first payment waits for the customer: the button confirms it for them. */
function completePaymentCell(subscription) {
  if (subscription.status !== "incomplete") return cell("");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "small";
  button.textContent = "Complete payment";
  button.addEventListener("click", () =>
    act(() => api("POST", `sandbox/subscriptions/${subscription.id}/complete-payment`)),
  );
  return cell(button);
}

async function refresh() {
  $("error").textContent = "";
  sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
  try {
    const [clock, products, customers, subscriptions, orders, deliveries] = await Promise.all([
      api("GET", "sandbox/clock"),
      api("GET", "v1/products/?limit=100"),
      api("GET", "v1/customers/?limit=100"),
      api("GET", "v1/subscriptions/?limit=100"),
      api("GET", "v1/orders/?limit=100"),
      api("GET", "v1/webhooks/deliveries?limit=100"),
    ]);
    $("clock-now").replaceChildren(dateTime(clock.now));
    $("clock-offset").textContent = `${Math.round(clock.offset_ms / 86_400_000)} days`;
    fillTable($("products"), products.items, (product) => [
      cell(product.name + (product.is_archived ? " (archived)" : "")),
      cell(product.recurring_interval ?? "one-time"),
      cell(product.prices.map(describePrice).join(", ")),
      cell(product.benefits.map((benefit) => benefit.description).join(", ")),
      cell(product.id, "id"),
    ]);
    fillTable($("customers"), customers.items, (customer) => [
      cell(customer.email),
      cell(customer.name),
      cell(customer.type),
      cell(customer.external_id),
      cell(customer.id, "id"),
    ]);
    fillTable($("subscriptions"), subscriptions.items, (subscription) => [
      cell(subscription.customer.email ?? subscription.customer.name),
      cell(subscription.product.name),
      cell(subscription.status),
      cell(dateTime(subscription.current_period_end)),
      cell(subscription.cancel_at_period_end ? "yes" : "no"),
      cell(subscription.id, "id"),
      completePaymentCell(subscription),
    ]);
    fillTable($("orders"), orders.items, (order) => [
      cell(dateTime(order.created_at)),
      cell(order.customer.email ?? order.customer.name),
      cell(words(order.billing_reason)),
      cell(order.status),
      cell(money(order.total_amount, order.currency), "number"),
      cell(money(order.refunded_amount, order.currency), "number"),
    ]);
    fillTable($("deliveries"), deliveries.items, (delivery) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary small";
      button.textContent = "Redeliver";
      button.addEventListener("click", () =>
        act(() => api("POST", `v1/webhooks/events/${delivery.webhook_event.id}/redeliver`)),
      );
      return [
        cell(dateTime(delivery.created_at)),
        cell(delivery.webhook_event.type),
        cell(
          delivery.succeeded ? `OK ${delivery.http_code}` : `Failed ${delivery.http_code ?? ""}`,
          delivery.succeeded ? "ok" : "failed",
        ),
        cell((delivery.response ?? "").slice(0, 120)),
        cell(button),
      ];
    });
  } catch (error) {
    $("error").textContent = error.message;
  }
}

async function act(action) {
  try {
    await action();
  } catch (error) {
    $("error").textContent = error.message;
  }
  await refresh();
}

for (const button of document.querySelectorAll("[data-advance-days]")) {
  button.addEventListener("click", () =>
    act(() => api("POST", "sandbox/clock/advance", { days: Number(button.dataset.advanceDays) })),
  );
}
$("refresh").addEventListener("click", refresh);
refresh();
