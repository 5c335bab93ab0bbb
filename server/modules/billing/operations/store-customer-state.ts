import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import type { models } from "../billing.provider";
import * as repository from "../billing.repository";

/**
 * Stores a customer state. A webhook's state carries the time it was sent (`at`) and is kept only when newer
 * than the stored one; a state read from the provider just now (no `at`) is the truth and always kept.
 */
export async function storeCustomerState(
  db: Kysely<Database>,
  scope: repository.BillingScope,
  state: models.CustomerState,
  at: string | undefined,
): Promise<boolean> {
  const stored = await repository.findCustomer(db, scope);
  const storedAt = stored?.state_at ?? null;
  const stamp =
    at ??
    [storedAt, new Date().toISOString()]
      .filter((value): value is string => value !== null)
      .sort()
      .at(-1)!;
  if (at !== undefined && storedAt !== null && at < storedAt) return false;
  return repository.saveCustomerState(db, scope, { json: JSON.stringify(state), at: stamp, customerId: state.id });
}
