import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

const PASSKEY_TRIGGER = "cache_invalidation_passkey";

/**
 * An organization's security policy: whether its members must have a second factor (`requireTwoFactor`, off by
 * default). A passkey added or removed changes whether its owner may read an organization that requires one, so
 * those rows drop the owner's replayed answers too (the read cache of migration 0009; a TOTP factor changes
 * `user.twoFactorEnabled`, which is already watched).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { boolean, dialect } = await columnTypes(db);
  await db.schema
    .alterTable("organization")
    .addColumn("requireTwoFactor", boolean as "boolean", (col) => col.notNull().defaultTo(false))
    .execute();
  const invalidate = (row: "old" | "new") => `insert into cache_invalidation (user_id) values (${row}."userId");`;
  if (dialect === "sqlite") {
    for (const [event, row] of [
      ["insert", "new"],
      ["delete", "old"],
    ] as const) {
      await sql
        .raw(`create trigger ${PASSKEY_TRIGGER}_${event} after ${event} on "passkey" begin ${invalidate(row)} end`)
        .execute(db);
    }
    return;
  }
  const body = `if tg_op = 'INSERT' then ${invalidate("new")} else ${invalidate("old")} end if;`;
  await sql
    .raw(
      `create function ${PASSKEY_TRIGGER}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${PASSKEY_TRIGGER} after insert or delete on "passkey" for each row execute function ${PASSKEY_TRIGGER}()`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect === "sqlite") {
    for (const event of ["insert", "delete"])
      await sql.raw(`drop trigger if exists ${PASSKEY_TRIGGER}_${event}`).execute(db);
  } else {
    await sql.raw(`drop trigger if exists ${PASSKEY_TRIGGER} on "passkey"`).execute(db);
    await sql.raw(`drop function if exists ${PASSKEY_TRIGGER}()`).execute(db);
  }
  await db.schema.alterTable("organization").dropColumn("requireTwoFactor").execute();
}
