import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { ColumnDataType, Expression } from "kysely";

/** Column types that differ between the two dialects, matching what better-auth's Kysely adapter expects. */
export type ColumnTypes = {
  boolean: ColumnDataType;
  timestamp: ColumnDataType | Expression<unknown>;
  dialect: "sqlite" | "postgres";
};

export async function columnTypes(db: Kysely<unknown>): Promise<ColumnTypes> {
  const isPostgres = await sql`select version() as v`
    .execute(db)
    .then(() => true)
    .catch(() => false);
  return isPostgres
    ? { boolean: "boolean", timestamp: "timestamptz", dialect: "postgres" }
    : { boolean: "integer", timestamp: "date", dialect: "sqlite" };
}
