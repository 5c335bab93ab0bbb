// The sandbox dashboard: reads the provider API lists and the clock control, all through relative
// URLs so it works at the sandbox root and mounted under the app.
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

const money = (amount, currency = "usd") => new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text ?? "";
  if (className) td.className = className;
  return td;
}

function fill(tbodyId, items, toCells) {
  const body = $(tbodyId);
  if (items.length === 0) {
    // An empty table says so, across all its columns.
    const td = cell("Nothing yet.", "empty");
    td.colSpan = body.closest("table").querySelectorAll("thead th").length;
    const tr = document.createElement("tr");
    tr.append(td);
    body.replaceChildren(tr);
    return;
  }
  const rows = items.map((item) => {
    const tr = document.createElement("tr");
    tr.append(...toCells(item));
    return tr;
  });
  body.replaceChildren(...rows);
}

function describePrice(price) {
  if (price.amount_type === "fixed") return money(price.price_amount, price.price_currency);
  if (price.amount_type === "seat_based") return `${money(price.seat_tiers.tiers[0].price_per_seat, price.price_currency)} / seat`;
  if (price.amount_type === "metered_unit") return `${price.unit_amount}¢ / ${price.meter.name}`;
  return "pay what you want";
}

/** An incomplete subscription's first payment waits for the customer: the button confirms it for them. */
function completePaymentCell(subscription) {
  const actions = document.createElement("td");
  if (subscription.status !== "incomplete") return actions;
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Complete payment";
  button.addEventListener("click", () => act(() => api("POST", `sandbox/subscriptions/${subscription.id}/complete-payment`)));
  actions.append(button);
  return actions;
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
    $("clock-now").textContent = clock.now;
    $("clock-offset").textContent = `${Math.round(clock.offset_ms / 86_400_000)} days`;
    fill("products", products.items, (product) => [
      cell(product.name + (product.is_archived ? " (archived)" : "")),
      cell(product.recurring_interval ?? "one-time"),
      cell(product.prices.map(describePrice).join(", ")),
      cell(product.benefits.map((benefit) => benefit.description).join(", ")),
      cell(product.id),
    ]);
    fill("customers", customers.items, (customer) => [
      cell(customer.email),
      cell(customer.name),
      cell(customer.type),
      cell(customer.external_id),
      cell(customer.id),
    ]);
    fill("subscriptions", subscriptions.items, (subscription) => [
      cell(subscription.customer.email ?? subscription.customer.name),
      cell(subscription.product.name),
      cell(subscription.status),
      cell(subscription.current_period_end),
      cell(subscription.cancel_at_period_end ? "yes" : "no"),
      cell(subscription.id),
      completePaymentCell(subscription),
    ]);
    fill("orders", orders.items, (order) => [
      cell(order.created_at),
      cell(order.customer.email ?? order.customer.name),
      cell(order.billing_reason),
      cell(order.status),
      cell(money(order.total_amount, order.currency)),
      cell(money(order.refunded_amount, order.currency)),
    ]);
    fill("deliveries", deliveries.items, (delivery) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Redeliver";
      button.addEventListener("click", () => act(() => api("POST", `v1/webhooks/events/${delivery.webhook_event.id}/redeliver`)));
      const actions = document.createElement("td");
      actions.append(button);
      return [
        cell(delivery.created_at),
        cell(delivery.webhook_event.type),
        cell(delivery.succeeded ? `OK ${delivery.http_code}` : `Failed ${delivery.http_code ?? ""}`, delivery.succeeded ? "ok" : "failed"),
        cell((delivery.response ?? "").slice(0, 120)),
        actions,
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
  button.addEventListener("click", () => act(() => api("POST", "sandbox/clock/advance", { days: Number(button.dataset.advanceDays) })));
}
$("refresh").addEventListener("click", refresh);
refresh();
