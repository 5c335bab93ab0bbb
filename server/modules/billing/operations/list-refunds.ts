import type { Kysely } from "kysely";
import type { BillingRefund } from "../../../../common/billing.schemas";
import type { Database } from "../../../db/schema";
import { toRefund } from "../billing.projection";
import type { models } from "../billing.provider";
import * as repository from "../billing.repository";

/** The organization's refunds, newest first, from the projection. */
export async function listRefunds(db: Kysely<Database>, scope: repository.BillingScope): Promise<BillingRefund[]> {
  return (await repository.listObjects<models.Refund>(db, scope, "refund", 100)).map(toRefund);
}
