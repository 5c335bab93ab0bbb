import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { recordAuditEvent, type AuditContext, type AuditEventInput } from "../../audit";
import { objectRecord, type ProviderObject } from "../billing.projection";
import * as repository from "../billing.repository";

/** Stores a provider object in the projection, unless a newer copy of it is stored already. */
export async function saveProviderObject(
  db: Kysely<Database>,
  scope: repository.BillingScope,
  kind: repository.ObjectKind,
  object: ProviderObject,
): Promise<void> {
  await repository.saveObject(db, scope, { kind, ...objectRecord(object) });
}

/**
 * Stores the provider's answer to a change someone asked for, with its audit entry in the same transaction. The
 * provider has made the change by then; a failed call never gets here, so a refused change records nothing.
 */
export async function saveAudited(
  db: Kysely<Database>,
  scope: repository.BillingScope,
  change: { kind: repository.ObjectKind; object: ProviderObject },
  audit: AuditContext,
  event: AuditEventInput,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await saveProviderObject(trx, scope, change.kind, change.object);
    await recordAuditEvent(trx, audit, event);
  });
}
