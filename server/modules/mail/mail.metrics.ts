import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { ageSeconds, gauge, type BacklogMetrics } from "../../http/metrics";

/** The outbox's backlog for /metrics: mail waiting to be sent (pending, or being sent) and the oldest one's age. */
export function mailBacklogMetrics(db: Kysely<Database>): BacklogMetrics {
  return async (now) => {
    const mail = await db
      .selectFrom("mail_outbox")
      .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.min("created_at").as("oldest")])
      .where("status", "in", ["pending", "sending"])
      .executeTakeFirstOrThrow();
    return [
      gauge("atrium_mail_outbox_pending", "Mails queued and not yet sent (pending, or being sent).", [
        { value: Number(mail.count) },
      ]),
      gauge(
        "atrium_mail_outbox_oldest_pending_age_seconds",
        "Age of the oldest mail not yet sent; 0 when none waits.",
        [{ value: ageSeconds(mail.oldest, now) }],
      ),
    ];
  };
}
