import type { Kysely } from "kysely";
import type { LimitedResource } from "../../../../common/billing.schemas";
import { ERROR_CODES } from "../../../../common/error-codes";
import { currentDatabase } from "../../../db/current-database";
import type { Database } from "../../../db/schema";
import { DomainError } from "../../../../common/domain-error";
import type { BillingContext } from "../billing.context";
import { countSeats, countTeams, lockOrganization } from "../../organizations";
import { entitlementsFrom, freePlanSummary, limitReachedMessage, planNameOf } from "../billing.entitlements";
import { stateOf } from "../billing.projection";
import * as repository from "../billing.repository";
import { findCurrentSubscription } from "./find-current-subscription";

/**
 * The plan limit check: throws 403 with the reason when adding `adding` more of `resource` would pass the plan's
 * limit. `adding` may be read from the database: it is, like the count, under the organization's lock. Without a
 * billing provider no plan limit applies: no plan could be bought to lift it.
 */
export async function assertWithinLimit(
  deps: Pick<BillingContext, "db" | "isConfigured">,
  scope: repository.BillingScope,
  resource: LimitedResource,
  adding: number | ((trx: Kysely<Database>) => Promise<number>),
): Promise<void> {
  if (!deps.isConfigured) return;
  // Called from the billing rules, inside the transaction of the organization change they check. Concurrent
  // changes of one organization count one after the other: each sees what the ones before it wrote.
  const trx = await currentDatabase(deps.db);
  await lockOrganization(trx, scope.organizationId);
  const subscription = await findCurrentSubscription(trx, scope);
  const { limits } = entitlementsFrom(stateOf(await repository.findCustomer(trx, scope)), subscription);
  const limit = limits[resource];
  if (limit === null) return;
  const used = resource === "members" ? await countSeats(trx, scope) : await countTeams(trx, scope);
  if (used + (typeof adding === "number" ? adding : await adding(trx)) <= limit) return;
  const plan = subscription ? planNameOf(subscription.product) : freePlanSummary().name;
  throw new DomainError(
    ERROR_CODES.PLAN_LIMIT_REACHED,
    limitReachedMessage(resource, plan, limit, subscription?.seats != null),
    {
      resource,
      limit,
      used,
    },
  );
}
