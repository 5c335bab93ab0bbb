import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../../common/error-codes";
import type { Database } from "../../db/schema";
import { DomainError } from "../../../common/domain-error";
import type { Logger } from "../../logger";
import type { AuditEventInput } from "../audit";
import type { models, ProviderClient } from "./billing.provider";

/**
 * What the billing use cases depend on. Each use case (operations/*.ts) takes the part it needs (a `Pick` of
 * this), so its dependencies are explicit; `createBilling` (billing.service.ts) builds one and binds them.
 */
export type BillingContext = {
  db: Kysely<Database>;
  /** Whether this deployment has a billing provider (the real one or the sandbox). */
  isConfigured: boolean;
  /** The provider client; throws 404 BILLING_NOT_CONFIGURED when billing is not configured on this deployment. */
  provider: () => ProviderClient;
  /** The provider's products on offer (cached). */
  catalogue: ProductCatalogue;
  /** The event names the provider's meters count (cached); undefined while the provider cannot tell. */
  meters: MeterCatalogue;
  /** Where the app is reachable (return URLs of the checkout and the portal). */
  baseUrl: string;
  logger: Logger;
  /** Wakes the billing worker: a webhook or usage record is waiting. */
  nudge: () => void;
};

export type ProductCatalogue = { products: () => Promise<models.Product[]> };
export type MeterCatalogue = {
  eventNames: () => Promise<string[] | undefined>;
  /** The meters' names by id, from the same cached list; undefined while the provider cannot tell. */
  names: () => Promise<ReadonlyMap<string, string> | undefined>;
};

/** A change made to a subscription at the provider: its answer, and what the audit log says about it. */
export type SubscriptionChange = { updated: models.Subscription; event: Pick<AuditEventInput, "action" | "details"> };

/** What every billing endpoint answers on a deployment without a billing provider. */
export function billingNotConfigured(): DomainError {
  return new DomainError(ERROR_CODES.BILLING_NOT_CONFIGURED, "Billing is not configured on this deployment.");
}

/** The provider client, or 404 BILLING_NOT_CONFIGURED when the deployment has none. */
export function requireProvider(provider: ProviderClient | null): ProviderClient {
  if (!provider) throw billingNotConfigured();
  return provider;
}

/** The organization's billing page: where the checkout and the portal send the customer back. */
export function billingPageUrl(baseUrl: string, organizationId: string): string {
  return `${baseUrl}/organizations/${encodeURIComponent(organizationId)}/settings/billing`;
}
