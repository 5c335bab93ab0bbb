import { ERROR_CODES } from "../../../../common/error-codes";
import { DomainError } from "../../../../common/domain-error";
import type { BillingContext } from "../billing.context";
import { isNotFound, providerStatus, toProviderError } from "../billing.provider";
import * as repository from "../billing.repository";

type Deps = Pick<BillingContext, "db" | "provider">;

/** The organization's provider customer, created on first need and found again after a lost answer (idempotent). */
export async function ensureCustomer(deps: Deps, scope: repository.BillingScope): Promise<string> {
  const known = await repository.findCustomer(deps.db, scope);
  if (known?.customer_id) return known.customer_id;
  const client = deps.provider();
  const existing = await findProviderCustomer(deps, scope);
  if (existing) return existing;
  const organization = await repository.findOrganization(deps.db, scope.organizationId);
  if (!organization) throw new DomainError(ERROR_CODES.NOT_FOUND, "organization not found");
  try {
    const created = await client.customers.create({
      type: "team",
      external_id: scope.organizationId,
      name: organization.name,
      metadata: { organization_id: scope.organizationId },
    });
    await repository.saveCustomerId(deps.db, scope, created.id);
    return created.id;
  } catch (error) {
    // Created by a request whose answer was lost, or by a concurrent one: the external id finds it.
    if (providerStatus(error) === 422) {
      const again = await findProviderCustomer(deps, scope);
      if (again) return again;
    }
    throw toProviderError("create the billing customer", error);
  }
}

/** The organization's customer at the provider (by external id), remembered once found; undefined when it has none. */
export async function findProviderCustomer(deps: Deps, scope: repository.BillingScope): Promise<string | undefined> {
  try {
    const customer = await deps.provider().customers.getExternal(scope.organizationId);
    await repository.saveCustomerId(deps.db, scope, customer.id);
    return customer.id;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw toProviderError("look up the billing customer", error);
  }
}
