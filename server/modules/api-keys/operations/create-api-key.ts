import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { z } from "zod";
import type { createApiKeySchema, CreatedApiKey } from "../../../../common/api-key.schemas";
import { DomainError } from "../../../../common/domain-error";
import { ERROR_CODES } from "../../../../common/error-codes";
import { apiKeyScopes, rolesAllow, type OrganizationPermissions } from "../../../../common/permissions";
import type { Database } from "../../../db/schema";
import { recordAuditEvent, type AuditContext } from "../../audit";
import type { OrganizationScope } from "../../organizations";
import { insertApiKey } from "../api-keys.repository";
import { generateApiKey } from "../api-keys.secret";

const DAY_MS = 86_400_000;

/**
 * An owner or admin creates an API key for the organization: each scope only if their role holds what it stands for.
 * The key is stored as its hash; the answer is the only time its secret is shown. Key and audit entry are one
 * transaction.
 */
export async function createApiKey(
  db: Kysely<Database>,
  scope: OrganizationScope,
  input: z.output<typeof createApiKeySchema>,
  audit: AuditContext,
  now = new Date(),
): Promise<CreatedApiKey> {
  for (const name of input.scopes) {
    const grants: OrganizationPermissions = apiKeyScopes[name].grants;
    if (Object.keys(grants).length > 0 && !rolesAllow(scope.roles.join(","), grants))
      throw new DomainError(ERROR_CODES.FORBIDDEN, `Your role cannot grant the scope ${name}`);
  }
  const { key, prefix, keyHash } = generateApiKey();
  const id = randomUUID();
  const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null;
  await db.transaction().execute(async (trx) => {
    await insertApiKey(trx, {
      id,
      organization_id: scope.organizationId,
      name: input.name,
      prefix,
      key_hash: keyHash,
      scopes: JSON.stringify(input.scopes),
      created_by: scope.userId,
      created_at: now.toISOString(),
      expires_at: expiresAt?.toISOString() ?? null,
    });
    await recordAuditEvent(trx, audit, {
      action: "organization.api_key_created",
      target: { type: "api_key", id, label: input.name },
      organization: { id: scope.organizationId },
      details: { scopes: input.scopes, prefix, expiresAt: expiresAt?.toISOString() ?? null },
    });
  });
  return {
    id,
    key,
    name: input.name,
    scopes: input.scopes,
    prefix,
    createdAt: now.toISOString(),
    expiresAt: expiresAt?.toISOString() ?? null,
  };
}
