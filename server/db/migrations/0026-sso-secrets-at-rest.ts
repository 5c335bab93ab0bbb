import { sql, type Kysely, type Migration } from "kysely";
import { openSsoSecrets, sealSsoSecrets, storedSsoSecrets, type SsoConfigColumn } from "../sso-secrets";

const COLUMNS: SsoConfigColumn[] = ["oidcConfig", "samlConfig"];

/**
 * The SSO providers' secrets encrypted at rest (docs/decisions/0026): every `ssoProvider` row stored before with an
 * OIDC client secret or a SAML private key (or its passphrase) in plain is rewritten as the app writes it now
 * (server/db/sso-secrets.ts). The only migration that needs the auth secret: without one (`null`, a database that
 * holds no provider, such as a new one) a row with a secret to encrypt fails it rather than stay in plain. Down
 * decrypts them again, and fails on a secret the auth secret does not decrypt rather than lose it.
 */
export function ssoSecretsAtRest(authSecret: string | null): Migration {
  return {
    up: (db) => rewriteConfigs(db, "plain", (column, value, key) => sealSsoSecrets(column, value, key), authSecret),
    down: (db) =>
      rewriteConfigs(db, "encrypted", (column, value, key) => openSsoSecrets(column, value, key, "throw"), authSecret),
  };
}

type ProviderConfigs = { id: string; providerId: string } & Record<SsoConfigColumn, string | null>;

async function rewriteConfigs(
  db: Kysely<unknown>,
  from: "plain" | "encrypted",
  rewrite: (column: SsoConfigColumn, value: string, key: string) => Promise<unknown>,
  authSecret: string | null,
): Promise<void> {
  const { rows } = await sql<ProviderConfigs>`
    select "id", "providerId", "oidcConfig", "samlConfig" from "ssoProvider" order by "id"`.execute(db);
  for (const row of rows) {
    for (const column of COLUMNS) {
      const value = row[column];
      const secrets = storedSsoSecrets(column, value)[from];
      if (value === null || secrets.length === 0) continue;
      if (authSecret === null) {
        const fields = `${column}: ${secrets.join(", ")}`;
        throw new Error(
          `SSO provider ${row.providerId} holds ${from} secrets (${fields}) and no auth secret was given`,
        );
      }
      const rewritten = await rewrite(column, value, authSecret);
      await sql`update "ssoProvider" set ${sql.ref(column)} = ${rewritten} where "id" = ${row.id}`.execute(db);
    }
  }
}
