import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * One row per job that only one instance may run at a time (docs/decisions/0013): the scheduled jobs (billing
 * reconciliation, the purges) and the billing webhook applier. `next_run_at` is when the job is next due; an
 * instance runs it only when its conditional update moves that time forward (server/jobs/job-schedule.ts).
 * `claim` names the latest claim, so its holder alone can move the time again (release or extend a lease).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = (await columnTypes(db)).timestamp as "timestamptz";
  await db.schema
    .createTable("job_schedule")
    .addColumn("name", "text", (col) => col.primaryKey().notNull())
    .addColumn("next_run_at", ts, (col) => col.notNull())
    .addColumn("claim", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("job_schedule").execute();
}
