import { validationError } from "./api-errors";
import type { SandboxContext } from "./context";
import { serializeCustomer, serializeCustomerState } from "./customers.serializers";
import type { CustomerRecord } from "./records";
import { newId, newToken, requireRecord } from "./shared";

/** Customers (by id, external id or e-mail), their state webhook, and the customer sessions the portal signs in with. */

export const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;

export function emitCustomerStateChanged(ctx: SandboxContext, customerId: string): void {
  ctx.webhooks.emit("customer.state_changed", serializeCustomerState(ctx, requireRecord(ctx.store, "customer", customerId)));
}

type CustomerInput = {
  email: string;
  name?: string | null;
  external_id?: string | null;
  metadata?: CustomerRecord["metadata"];
  billing_address?: CustomerRecord["billing_address"];
  tax_id?: CustomerRecord["tax_id"];
  locale?: string | null;
};

export function assertCustomerUnique(ctx: SandboxContext, input: { email?: string | null; external_id?: string | null }, exceptId?: string): void {
  const others = ctx.store.list("customer", (customer) => customer.deleted_at === null && customer.id !== exceptId);
  if (input.email && others.some((customer) => customer.email.toLowerCase() === input.email?.toLowerCase())) {
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
    email: input.email,
    email_verified: false,
    type: "individual",
    name: input.name ?? null,
    billing_name: null,
    billing_address: input.billing_address ?? null,
    tax_id: input.tax_id ?? null,
    locale: input.locale ?? null,
    deleted_at: null,
  });
}

export function findCustomerByExternalId(ctx: SandboxContext, externalId: string): CustomerRecord | undefined {
  return ctx.store.list("customer", (customer) => customer.external_id === externalId && customer.deleted_at === null)[0];
}

/** The live customer with this e-mail address, compared case-insensitively. */
export function findCustomerByEmail(ctx: SandboxContext, email: string): CustomerRecord | undefined {
  return ctx.store.list("customer", (customer) => customer.deleted_at === null && customer.email.toLowerCase() === email.toLowerCase())[0];
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
