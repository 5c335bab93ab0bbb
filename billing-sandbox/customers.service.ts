import { validationError } from "./api-errors";
import type { SandboxContext } from "./context";
import { serializeCustomer, serializeCustomerState } from "./customers.serializers";
import type { CustomerRecord } from "./records";
import { newId, newToken, requireRecord, TEST_CARDS } from "./shared";

/**
 * Customers (by id, external id or e-mail), their state webhook, the cards saved on them, and the customer
 * sessions the portal signs in with.
 */

export const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;

export function emitCustomerStateChanged(ctx: SandboxContext, customerId: string): void {
  ctx.webhooks.emit(
    "customer.state_changed",
    serializeCustomerState(ctx, requireRecord(ctx.store, "customer", customerId)),
  );
}

type CustomerInput = {
  type?: CustomerRecord["type"];
  email?: string | null;
  name?: string | null;
  external_id?: string | null;
  metadata?: CustomerRecord["metadata"];
  billing_address?: CustomerRecord["billing_address"];
  tax_id?: CustomerRecord["tax_id"];
  locale?: string | null;
};

/** E-mail addresses are unique per organization regardless of case; a team without one matches nothing. */
export const isSameEmail = (email: string | null, other: string) => email?.toLowerCase() === other.toLowerCase();

export function assertCustomerUnique(
  ctx: SandboxContext,
  input: { email?: string | null; external_id?: string | null },
  exceptId?: string,
): void {
  const others = ctx.store.list("customer", (customer) => customer.deleted_at === null && customer.id !== exceptId);
  const { email } = input;
  if (email && others.some((customer) => isSameEmail(customer.email, email))) {
    throw validationError(["body", "email"], "A customer with this email address already exists.");
  }
  if (input.external_id && others.some((customer) => customer.external_id === input.external_id)) {
    throw validationError(["body", "external_id"], "A customer with this external ID already exists.");
  }
}

export function createCustomer(ctx: SandboxContext, input: CustomerInput): CustomerRecord {
  const customer = insertCustomer(ctx, input);
  ctx.webhooks.emit("customer.created", serializeCustomer(ctx, customer));
  return customer;
}

/** Stores a customer without announcing it (checkout confirmation announces it after checkout.updated). */
export function insertCustomer(ctx: SandboxContext, input: CustomerInput): CustomerRecord {
  assertCustomerUnique(ctx, input);
  return ctx.store.put("customer", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    metadata: input.metadata ?? {},
    external_id: input.external_id ?? null,
    email: input.email ?? null,
    email_verified: false,
    type: input.type ?? "individual",
    name: input.name ?? null,
    billing_name: null,
    billing_address: input.billing_address ?? null,
    tax_id: input.tax_id ?? null,
    locale: input.locale ?? null,
    default_payment_method_id: null,
    deleted_at: null,
  });
}

export function findCustomerByExternalId(ctx: SandboxContext, externalId: string): CustomerRecord | undefined {
  return ctx.store.list(
    "customer",
    (customer) => customer.external_id === externalId && customer.deleted_at === null,
  )[0];
}

/** The live customer with this e-mail address, compared case-insensitively. */
export function findCustomerByEmail(ctx: SandboxContext, email: string): CustomerRecord | undefined {
  return ctx.store.list(
    "customer",
    (customer) => customer.deleted_at === null && isSameEmail(customer.email, email),
  )[0];
}

/**
 * A customer without an e-mail address (a team) takes the one a checkout was paid with, unless another customer
 * already has it: the address is unique per organization, and a checkout never takes it from its owner.
 * Returns the customer, changed or not, and whether it changed.
 */
export function adoptCheckoutEmail(
  ctx: SandboxContext,
  customer: CustomerRecord,
  email: string | null,
): { customer: CustomerRecord; changed: boolean } {
  if (customer.email || !email || findCustomerByEmail(ctx, email)) return { customer, changed: false };
  return { customer: ctx.store.put("customer", { ...customer, email, modified_at: ctx.clock.iso() }), changed: true };
}

/** Saves a test card on the customer (once per card) and makes it the default, as paying with a card does at the provider. */
export function saveCard(ctx: SandboxContext, customer: CustomerRecord, token: string): CustomerRecord {
  const card = TEST_CARDS.get(token);
  if (!card) throw new Error(`${token} is not a test card`);
  const saved =
    ctx.store.list("payment_method", (method) => method.customer_id === customer.id && method.token === token)[0] ??
    ctx.store.put("payment_method", {
      id: newId(),
      created_at: ctx.clock.iso(),
      modified_at: null,
      customer_id: customer.id,
      processor: "stripe",
      type: "card",
      // Test cards have no expiry of their own; a few years ahead keeps them valid for any clock the tests move to.
      method_metadata: { ...card, exp_month: 12, exp_year: ctx.clock.now().getUTCFullYear() + 5, wallet: null },
      token,
    });
  return ctx.store.put("customer", { ...customer, default_payment_method_id: saved.id });
}

export function createCustomerSession(ctx: SandboxContext, customerId: string, returnUrl: string | null) {
  const now = ctx.clock.now();
  return ctx.store.put("customer_session", {
    id: newId(),
    created_at: now.toISOString(),
    modified_at: null,
    token: newToken("polar_cst_"),
    expires_at: new Date(now.getTime() + CUSTOMER_SESSION_TTL_MS).toISOString(),
    return_url: returnUrl,
    customer_id: customerId,
  });
}
