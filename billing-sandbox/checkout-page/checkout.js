// The hosted checkout page. It talks to the provider's client checkout API with the client secret,
// exactly as the provider's own page does: GET to render, PATCH for buyer fields and discount code,
// POST .../confirm with a test card token. A card that needs the customer's confirmation (3-D Secure) leaves
// the payment pending; the sandbox control behind "Confirm payment" stands in for the bank's check.
const main = document.querySelector("main");
const clientSecret = main.dataset.clientSecret;
const apiUrl = (suffix = "") =>
  new URL(`../v1/checkouts/client/${encodeURIComponent(clientSecret)}${suffix}`, window.location.href);
const confirmPaymentUrl = () =>
  new URL(`../sandbox/checkouts/client/${encodeURIComponent(clientSecret)}/complete-payment`, window.location.href);

const TEST_CARDS = {
  4242424242424242: "tok_visa",
  4000000000000002: "tok_chargeDeclined",
  4000002500003155: "tok_threeDSecureRequired",
};
const CARD_HINT =
  "Use a test card: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 needs your confirmation.";
const DECLINED = "Your card was declined. Nothing was charged; try another card.";
const $ = (id) => document.getElementById(id);
// The customer-session token of the confirmation, appended to success_url once the payment has gone through.
let sessionToken = null;

const money = (amount, currency) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);

function describePrice(checkout) {
  const price = checkout.product_price;
  const product = checkout.product;
  const per = product.recurring_interval
    ? ` / ${product.recurring_interval_count > 1 ? `${product.recurring_interval_count} ` : ""}${product.recurring_interval}`
    : "";
  if (!price) return "";
  if (price.amount_type === "seat_based") {
    const seats = `${checkout.seats} seat${checkout.seats === 1 ? "" : "s"}`;
    return `${money(price.seat_tiers.tiers[0].price_per_seat, price.price_currency)} per seat${per} · ${seats}`;
  }
  if (price.amount_type === "metered_unit") return `Usage based${per}`;
  return `${money(checkout.amount, checkout.currency)}${per}`;
}

function errorMessage(body, status) {
  if (body && typeof body.detail === "string") return body.detail;
  if (body && Array.isArray(body.detail)) return body.detail.map((issue) => issue.msg).join(" ");
  return `The request failed (HTTP ${status}).`;
}

/** A failed call: the message to show, and the provider's error name (`PaymentError` for a declined card). */
class CallError extends Error {
  constructor(message, name) {
    super(message);
    this.errorName = name;
  }
}

async function call(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new CallError(errorMessage(data, response.status), data?.error);
  return data;
}

const awaitsConfirmation = (checkout) =>
  checkout.status === "confirmed" && checkout.payment_processor_metadata?.intent_status === "requires_action";

function render(checkout) {
  if (checkout.return_url) {
    $("back").href = checkout.return_url;
    // The sandbox's merchant is a placeholder ("Sandbox Merchant"): the link says what it does instead.
    $("back").textContent = "Cancel and go back";
    $("back").hidden = false;
  }
  $("product-name").textContent = checkout.product.name;
  $("product-price").textContent = describePrice(checkout);
  if (!$("email").value && checkout.customer_email) $("email").value = checkout.customer_email;
  if (!$("name").value && checkout.customer_name) $("name").value = checkout.customer_name;
  $("email").readOnly = Boolean(checkout.customer_id && checkout.customer_email);
  $("discount-section").hidden = !checkout.allow_discount_codes;
  if (checkout.discount && !$("discount-code").value) $("discount-code").value = checkout.discount.code ?? "";
  $("amount").textContent = money(checkout.amount, checkout.currency);
  $("discount-amount").textContent = checkout.discount_amount
    ? `−${money(checkout.discount_amount, checkout.currency)}`
    : money(0, checkout.currency);
  $("tax-amount").textContent = money(checkout.tax_amount ?? 0, checkout.currency);
  $("total-amount").textContent = money(checkout.total_amount, checkout.currency);
  $("card-section").hidden = !checkout.is_payment_form_required;
  const isPayable = checkout.status === "open" || checkout.status === "failed";
  $("pay").disabled = !isPayable;
  $("pay").textContent = checkout.is_payment_required
    ? `Pay ${money(checkout.total_amount, checkout.currency)}`
    : "Subscribe";
  if (checkout.status === "expired") showError("This checkout has expired.");
  $("action").hidden = !awaitsConfirmation(checkout);
  if (checkout.status === "succeeded" || (checkout.status === "confirmed" && !awaitsConfirmation(checkout)))
    $("status").textContent = "This checkout is already paid.";
}

/** Like the provider's page: go to success_url with the customer-session token appended. */
function redirect(checkout) {
  const target = new URL(checkout.success_url, window.location.href);
  if (sessionToken) target.searchParams.set("customer_session_token", sessionToken);
  $("status").textContent = "Payment received. Redirecting…";
  window.location.assign(target.toString());
}

function showError(message) {
  $("error").textContent = message;
}

async function applyDiscount() {
  showError("");
  try {
    render(await call("PATCH", apiUrl(), { discount_code: $("discount-code").value.trim() || null }));
  } catch (error) {
    showError(error.message);
  }
}

async function pay(event) {
  event.preventDefault();
  showError("");
  const checkout = await call("GET", apiUrl());
  let token = null;
  if (checkout.is_payment_form_required) {
    token = TEST_CARDS[$("card-number").value.replace(/\s+/g, "")];
    if (!token) return showError(CARD_HINT);
  }
  $("pay").disabled = true;
  try {
    await call("PATCH", apiUrl(), {
      customer_email: $("email").value.trim() || null,
      customer_name: $("name").value.trim() || null,
    });
    const confirmed = await call("POST", apiUrl("/confirm"), { confirmation_token_id: token });
    sessionToken = confirmed.customer_session_token;
    if (awaitsConfirmation(confirmed)) {
      $("action").hidden = false;
      $("confirm-payment").focus();
      return;
    }
    redirect(confirmed);
  } catch (error) {
    showError(error.errorName === "PaymentError" ? DECLINED : error.message);
    $("pay").disabled = false;
  }
}

async function confirmPayment() {
  showError("");
  $("confirm-payment").disabled = true;
  try {
    redirect(await call("POST", confirmPaymentUrl()));
  } catch (error) {
    showError(error.message);
    $("confirm-payment").disabled = false;
  }
}

$("apply-discount").addEventListener("click", applyDiscount);
$("confirm-payment").addEventListener("click", confirmPayment);
$("checkout-form").addEventListener("submit", pay);
call("GET", apiUrl()).then(render, (error) => showError(error.message));
