import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { API_KEY_ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import { recordAuditEvent, type AuditContext } from "../../audit";
import type { OrganizationScope } from "../../organizations";
import { revokeApiKeyRow } from "../api-keys.repository";

/**
 * An owner or admin revokes one of the organization's keys: 404 for a key it does not have (or one already revoked).
 * The revocation and its audit entry are one transaction; the row's trigger puts it on the change feed, so every
 * instance stops accepting the key within a second (docs/decisions/0024).
 */
export async function revokeApiKey(
  db: Kysely<Database>,
  scope: OrganizationScope,
  keyId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const name = await revokeApiKeyRow(trx, scope.organizationId, keyId, now);
    if (name === undefined) throw DomainError.of(API_KEY_ERROR_CODES.API_KEY_NOT_FOUND);
    await recordAuditEvent(trx, audit, {
      action: "organization.api_key_revoked",
      target: { type: "api_key", id: keyId, label: name },
      organization: { id: scope.organizationId },
    });
  });
}
