import { currentDatabase } from "../../../db/current-database";
import { DomainError } from "../../../../common/domain-error";
import type { BillingContext } from "../billing.context";
import { isNotFound, toProviderError } from "../billing.provider";
import * as repository from "../billing.repository";

/**
 * Before an organization is deleted: its provider customer is deleted, which revokes its subscriptions, so
 * nothing goes on billing a deleted organization. If the provider cannot do it now, nothing is deleted.
 */
export async function releaseOrganization(
  deps: Pick<BillingContext, "db" | "provider">,
  scope: repository.BillingScope,
): Promise<void> {
  const customer = await repository.findCustomer(await currentDatabase(deps.db), scope);
  if (!customer?.customer_id) return;
  try {
    await deps.provider().customers.deleteExternal(scope.organizationId);
  } catch (error) {
    if (!isNotFound(error)) {
      const failure = toProviderError("end this organization's subscription", error);
      throw new DomainError(failure.code, `${failure.message} The organization was not deleted.`);
    }
  }
}
