import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";

/**
 * Jobs that one instance at a time runs, when several instances share the database (docs/decisions/0013). Each job
 * has a row in `job_schedule` with the time it is next due. Claiming is one conditional write: "move the next run
 * to now + hold, where it is due" (or insert the row, for a job never run). The database applies such writes to a
 * row one at a time (a row lock on PostgreSQL, the single writer on SQLite) and the second sees the moved time, so
 * exactly one claimer changes the row and runs the job. For a scheduled job the hold is its period; for a lease it
 * is how long the holder may work before another instance may take over, and the holder extends or releases it
 * with `rescheduleJob`.
 */

export type JobClaim = { name: string; id: string };

/**
 * Claims `name` if it is due: one upsert that inserts a job never seen before, or moves a due one's next run to
 * now + `holdMs`. Null when it is not due, or another instance claimed it first.
 */
export async function claimJob(db: Kysely<Database>, name: string, holdMs: number): Promise<JobClaim | null> {
  const now = Date.now();
  const claim = { name, id: randomUUID() };
  const nextRunAt = new Date(now + holdMs).toISOString();
  const result = await db
    .insertInto("job_schedule")
    .values({ name, next_run_at: nextRunAt, claim: claim.id })
    .onConflict((conflict) =>
      conflict
        .column("name")
        .doUpdateSet({ next_run_at: nextRunAt, claim: claim.id })
        .where("job_schedule.next_run_at", "<=", new Date(now).toISOString()),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? claim : null;
}

/**
 * Sets when the job is next due, if `claim` is still the latest claim of it: to extend a lease, release it (now), or
 * make a failed run due again. False when another instance has claimed the job since (the hold ran out).
 */
export async function rescheduleJob(db: Kysely<Database>, claim: JobClaim, nextRunAt: Date): Promise<boolean> {
  const result = await db
    .updateTable("job_schedule")
    .set({ next_run_at: nextRunAt.toISOString() })
    .where("name", "=", claim.name)
    .where("claim", "=", claim.id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Runs a scheduled job if it is due, once per `everyMs` across every instance; answers whether this instance ran
 * it. A run that fails is due again at once (the caller's next poll retries it) rather than a whole period later:
 * a purge or a reconciliation skipped for hours because of one database hiccup would be worse than a retry.
 * A process that dies during the run leaves the job claimed: it is next due a period after that claim.
 */
export async function runScheduledJob(
  db: Kysely<Database>,
  name: string,
  everyMs: number,
  job: () => Promise<void>,
): Promise<boolean> {
  const claim = await claimJob(db, name, everyMs);
  if (!claim) return false;
  try {
    await job();
  } catch (error) {
    await rescheduleJob(db, claim, new Date()).catch(() => undefined);
    throw error;
  }
  return true;
}
