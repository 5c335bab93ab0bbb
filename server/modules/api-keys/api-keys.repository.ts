import type { Kysely } from "kysely";
import { toIsoString } from "../../db/database";
import type { Insertable, Selectable } from "kysely";
import type { ApiKeyTable, Database } from "../../db/schema";
import type { ApiKeySummary } from "../../../common/api-key.schemas";

type ApiKeyRow = Pick<
  Selectable<ApiKeyTable>,
  "id" | "name" | "prefix" | "scopes" | "created_at" | "expires_at" | "last_used_at"
>;

export function toSummary(row: ApiKeyRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    prefix: row.prefix,
    createdAt: toIsoString(row.created_at) ?? "",
    expiresAt: toIsoString(row.expires_at),
    lastUsedAt: toIsoString(row.last_used_at),
  };
}

export async function insertApiKey(
  db: Kysely<Database>,
  row: Omit<Insertable<ApiKeyTable>, "last_used_at" | "revoked_at">,
) {
  await db
    .insertInto("api_key")
    .values({ ...row, last_used_at: null, revoked_at: null })
    .execute();
}

/** The organization's keys that are not revoked, newest first (expired ones too: the list says they expired). */
export async function findApiKeys(db: Kysely<Database>, organizationId: string): Promise<ApiKeySummary[]> {
  const rows = await db
    .selectFrom("api_key")
    .select(["id", "name", "prefix", "scopes", "created_at", "expires_at", "last_used_at"])
    .where("organization_id", "=", organizationId)
    .where("revoked_at", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toSummary);
}

/** A key by the hash of its secret, unless revoked; whether it expired is the caller's question. */
export async function findUsableApiKeyByHash(db: Kysely<Database>, keyHash: string) {
  return db
    .selectFrom("api_key")
    .select(["id", "name", "prefix", "organization_id", "scopes", "expires_at"])
    .where("key_hash", "=", keyHash)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
}

/** Revokes one key of the organization; returns its name, or undefined when it has none by that id (or was revoked). */
export async function revokeApiKeyRow(
  db: Kysely<Database>,
  organizationId: string,
  keyId: string,
  now: Date,
): Promise<string | undefined> {
  const found = await db
    .selectFrom("api_key")
    .select("name")
    .where("id", "=", keyId)
    .where("organization_id", "=", organizationId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!found) return undefined;
  const result = await db
    .updateTable("api_key")
    .set({ revoked_at: now.toISOString() })
    .where("id", "=", keyId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? found.name : undefined;
}

export async function setApiKeyLastUsed(db: Kysely<Database>, keyId: string, at: Date): Promise<void> {
  await db.updateTable("api_key").set({ last_used_at: at.toISOString() }).where("id", "=", keyId).execute();
}
