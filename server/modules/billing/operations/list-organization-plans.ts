import type { Kysely } from "kysely";
import type { SubscriptionStatus } from "../../../../common/billing.schemas";
import type { Database } from "../../../db/schema";
import { isCurrent, planKeyOf, planNameOf } from "../billing.entitlements";
import type { models } from "../billing.provider";
import * as repository from "../billing.repository";

export type OrganizationPlan = { plan: { key: string; name: string }; status: SubscriptionStatus | null };

/** Plan and status of several organizations (the admin list), from the stored subscriptions. */
export async function listOrganizationPlans(
  db: Kysely<Database>,
  organizationIds: string[],
): Promise<Map<string, OrganizationPlan>> {
  const rows = await repository.listSubscriptionsOf<models.Subscription>(db, organizationIds);
  const result = new Map<string, OrganizationPlan>();
  const newestFirst = rows.sort((a, b) => String(b.data.created_at).localeCompare(String(a.data.created_at)));
  for (const { organizationId, data } of newestFirst) {
    if (result.has(organizationId) || !isCurrent(data)) continue;
    const plan = { key: planKeyOf(data.product), name: planNameOf(data.product) };
    result.set(organizationId, { plan, status: data.status as SubscriptionStatus });
  }
  return result;
}
