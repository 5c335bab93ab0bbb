import type { PlanCatalogue } from "../../../../common/billing.schemas";
import type { BillingContext } from "../billing.context";
import { planCatalogue } from "../billing.pricing";

/** The plans on offer, free first, from the provider's catalogue. */
export async function listPlans(deps: Pick<BillingContext, "catalogue">): Promise<PlanCatalogue> {
  return planCatalogue(await deps.catalogue.products());
}
