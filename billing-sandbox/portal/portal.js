// The customer portal page behind `customer_portal_url`: the customer-session token from the query
// string authorizes the provider's customer-portal API, like the provider's own portal.
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

const money = (amount, currency) => new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);

function row(cells) {
  const tr = document.createElement("tr");
  for (const content of cells) {
    const td = document.createElement("td");
    if (content instanceof Node) td.append(content);
    else td.textContent = content ?? "";
    tr.append(td);
  }
  return tr;
}

function actionFor(subscription) {
  if (subscription.status !== "active" && subscription.status !== "trialing") return "";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = subscription.cancel_at_period_end ? "Resume" : "Cancel at period end";
  button.addEventListener("click", () =>
    run(() => api("PATCH", `v1/customer-portal/subscriptions/${subscription.id}`, { cancel_at_period_end: !subscription.cancel_at_period_end })),
  );
  return button;
}

async function render() {
  const [subscriptions, orders] = await Promise.all([
    api("GET", "v1/customer-portal/subscriptions/?limit=100"),
    api("GET", "v1/customer-portal/orders/?limit=100"),
  ]);
  $("subscriptions").replaceChildren(
    ...subscriptions.items.map((subscription) =>
      row([
        subscription.product.name,
        subscription.cancel_at_period_end ? `${subscription.status} (cancels)` : subscription.status,
        subscription.ends_at ?? subscription.current_period_end,
        actionFor(subscription),
      ]),
    ),
  );
  $("orders").replaceChildren(
    ...orders.items.map((order) => row([order.created_at, order.product?.name, order.billing_reason, order.status, money(order.total_amount, order.currency)])),
  );
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
