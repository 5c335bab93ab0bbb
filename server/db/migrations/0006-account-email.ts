import type { Kysely } from "kysely";

/**
 * The e-mail a sign-in provider asserted for a linked account (docs/decisions/0009), shown in account settings
 * so a user can tell which GitHub or Google account is linked. Null for passwords and for rows linked before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("account").addColumn("email", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("account").dropColumn("email").execute();
}
