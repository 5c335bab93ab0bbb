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

export type ClaimedMail = OutgoingMail & { id: string; attempts: number };

/**
 * Claims due mails for this worker: a row is moved to `sending` with a lease, guarded by its previous
 * state, so two instances never send the same row and a crashed worker's lease runs out.
 */
export async function claimDueMails(db: Kysely<Database>, limit: number, leaseMs: number): Promise<ClaimedMail[]> {
  const now = new Date();
  const candidates = await db
    .selectFrom("mail_outbox")
    .select(["id", "to_address", "subject", "text_body", "html_body", "attempts", "status", "next_attempt_at"])
    .where("status", "in", ["pending", "sending"])
    .where("next_attempt_at", "<=", now.toISOString())
    .orderBy("next_attempt_at")
    .limit(limit)
    .execute();
  const claimed: ClaimedMail[] = [];
  for (const row of candidates) {
    const result = await db
      .updateTable("mail_outbox")
      .set({ status: "sending", attempts: row.attempts + 1, next_attempt_at: new Date(now.getTime() + leaseMs).toISOString() })
      .where("id", "=", row.id)
      .where("attempts", "=", row.attempts)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      claimed.push({ id: row.id, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body, attempts: row.attempts + 1 });
    }
  }
  return claimed;
}

export async function markMailSent(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable("mail_outbox").set({ status: "sent", sent_at: new Date().toISOString(), last_error: null }).where("id", "=", id).execute();
}

export async function markMailFailed(db: Kysely<Database>, id: string, error: string, retryAt: Date | null): Promise<void> {
  await db
    .updateTable("mail_outbox")
    .set(retryAt ? { status: "pending", last_error: error, next_attempt_at: retryAt.toISOString() } : { status: "failed", last_error: error })
    .where("id", "=", id)
    .execute();
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
  let query = db.selectFrom("dev_mailbox").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(filter.limit);
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
