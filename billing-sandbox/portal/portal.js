// The customer portal page behind `customer_portal_url`: the customer-session token from the query
// string authorizes the provider's customer-portal API, like the provider's own portal.
import { cell, dateTime, fillTable, money, words } from "../layout/format.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(window.location.search).get("customer_session_token") ?? "";

async function api(method, path, body) {
  const response = await fetch(new URL(path, window.location.href), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(typeof data?.detail === "string" ? data.detail : `HTTP ${response.status}`);
  return data;
}

function actionFor(subscription) {
  if (subscription.status !== "active" && subscription.status !== "trialing") return "";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "secondary small";
  button.textContent = subscription.cancel_at_period_end ? "Resume" : "Cancel at period end";
  button.addEventListener("click", () =>
    run(() =>
      api("PATCH", `v1/customer-portal/subscriptions/${subscription.id}`, {
        cancel_at_period_end: !subscription.cancel_at_period_end,
      }),
    ),
  );
  return button;
}

async function render() {
  const [subscriptions, orders] = await Promise.all([
    api("GET", "v1/customer-portal/subscriptions/?limit=100"),
    api("GET", "v1/customer-portal/orders/?limit=100"),
  ]);
  fillTable($("subscriptions"), subscriptions.items, (subscription) => [
    cell(subscription.product.name),
    cell(subscription.cancel_at_period_end ? `${subscription.status} (cancels)` : subscription.status),
    cell(dateTime(subscription.ends_at ?? subscription.current_period_end)),
    cell(actionFor(subscription)),
  ]);
  fillTable($("orders"), orders.items, (order) => [
    cell(dateTime(order.created_at)),
    cell(order.product?.name),
    cell(words(order.billing_reason)),
    cell(order.status),
    cell(money(order.total_amount, order.currency), "number"),
  ]);
}

async function run(action) {
  $("error").textContent = "";
  try {
    await action();
    await render();
  } catch (error) {
    $("error").textContent = error.message;
  }
}

run(async () => undefined);
