import type { Kysely } from "kysely";

/**
 * The last TOTP time step a user's code was accepted for (server/auth/two-factor.ts): a code is refused for that
 * step and any earlier one, so a code seen once cannot be used again inside its window. Null until the first code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("twoFactor").addColumn("lastTotpStep", "integer").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("twoFactor").dropColumn("lastTotpStep").execute();
}
