import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { toIsoString } from "../../db/database";
import type { DevMail, OutgoingMail } from "./mail.schemas";

/** Writes a mail to the outbox; pass a transaction to tie it to the change that caused it. */
export async function insertOutboxMail(db: Kysely<Database>, mail: OutgoingMail): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await db
    .insertInto("mail_outbox")
    .values({
      id,
      to_address: mail.to.toLowerCase(),
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    })
    .execute();
  return id;
}

export type DueMail = { id: string; attempts: number };

export type ClaimedMail = OutgoingMail & { id: string; attempts: number };

/** Rows that are due: pending ones whose retry time has come, and `sending` ones whose lease has run out. */
export async function findDueMails(db: Kysely<Database>, limit: number): Promise<DueMail[]> {
  return db
    .selectFrom("mail_outbox")
    .select(["id", "attempts"])
    .where("status", "in", ["pending", "sending"])
    .where("next_attempt_at", "<=", new Date().toISOString())
    .orderBy("next_attempt_at")
    .limit(limit)
    .execute();
}

/**
 * Claims one due row for this worker right before sending it: the row moves to `sending` with a lease of
 * `leaseMs` and one more attempt. The update is guarded by the attempt count and by the row still being
 * due, so of two instances only one wins, and a row another worker finished or re-leased meanwhile is
 * left alone. The attempt count is this worker's proof of holding the lease (see `markMailSent`).
 */
export async function claimMail(db: Kysely<Database>, due: DueMail, leaseMs: number): Promise<ClaimedMail | null> {
  const now = new Date();
  const row = await db
    .updateTable("mail_outbox")
    .set({
      status: "sending",
      attempts: due.attempts + 1,
      next_attempt_at: new Date(now.getTime() + leaseMs).toISOString(),
    })
    .where("id", "=", due.id)
    .where("attempts", "=", due.attempts)
    .where("status", "in", ["pending", "sending"])
    .where("next_attempt_at", "<=", now.toISOString())
    .returning(["id", "to_address", "subject", "text_body", "html_body", "attempts"])
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        attempts: row.attempts,
      }
    : null;
}

/** Only the worker that still holds the lease (the row is `sending` at its attempt) may finish a row. */
function holdingLease(db: Kysely<Database>, mail: DueMail) {
  return db
    .updateTable("mail_outbox")
    .where("id", "=", mail.id)
    .where("status", "=", "sending")
    .where("attempts", "=", mail.attempts);
}

/** Marks a claimed mail sent; false when the lease was lost, and then the row is left as it is. */
export async function markMailSent(db: Kysely<Database>, mail: DueMail): Promise<boolean> {
  const result = await holdingLease(db, mail)
    .set({ status: "sent", sent_at: new Date().toISOString(), last_error: null })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Reschedules a claimed mail at `retryAt`, or gives it up when null; false when the lease was lost. */
export async function markMailFailed(
  db: Kysely<Database>,
  mail: DueMail,
  error: string,
  retryAt: Date | null,
): Promise<boolean> {
  const result = await holdingLease(db, mail)
    .set(
      retryAt
        ? { status: "pending", last_error: error, next_attempt_at: retryAt.toISOString() }
        : { status: "failed", last_error: error },
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes finished outbox rows (sent or given up) and dev mailbox mails created before `before`. Rows still
 * pending or sending are never touched. Both deletes use the indexes of migration 0004.
 */
export async function purgeMailsCreatedBefore(
  db: Kysely<Database>,
  before: Date,
): Promise<{ outbox: number; devMailbox: number }> {
  const cutoff = before.toISOString();
  const outbox = await db
    .deleteFrom("mail_outbox")
    .where("status", "in", ["sent", "failed"])
    .where("created_at", "<", cutoff)
    .executeTakeFirst();
  const devMailbox = await db.deleteFrom("dev_mailbox").where("created_at", "<", cutoff).executeTakeFirst();
  return { outbox: Number(outbox.numDeletedRows), devMailbox: Number(devMailbox.numDeletedRows) };
}

let lastDevMailTime = 0;
let devMailSequence = 0;

/**
 * Dev mailbox ids sort in delivery order: the time, then a counter within the millisecond. Mails delivered
 * in one millisecond share `created_at`, and a random id would list them in random order.
 */
function sequentialDevMailId(time: number): string {
  devMailSequence = time === lastDevMailTime ? devMailSequence + 1 : 0;
  lastDevMailTime = time;
  return `${time.toString(16).padStart(12, "0")}-${devMailSequence.toString(16).padStart(6, "0")}-${randomUUID()}`;
}

export async function insertDevMail(db: Kysely<Database>, mail: OutgoingMail): Promise<void> {
  const now = new Date();
  await db
    .insertInto("dev_mailbox")
    .values({
      id: sequentialDevMailId(now.getTime()),
      to_address: mail.to.toLowerCase(),
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      created_at: now.toISOString(),
    })
    .execute();
}

export async function findDevMails(db: Kysely<Database>, filter: { to?: string; limit: number }): Promise<DevMail[]> {
  let query = db
    .selectFrom("dev_mailbox")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(filter.limit);
  if (filter.to) query = query.where("to_address", "=", filter.to);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    createdAt: toIsoString(row.created_at) ?? "",
  }));
}

export async function deleteDevMails(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom("dev_mailbox").execute();
}
