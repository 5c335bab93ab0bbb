import type { Kysely } from "kysely";
import nodemailer from "nodemailer";
import type { Database } from "../../db/schema";
import { insertDevMail, insertOutboxMail } from "./mail.repository";
import type { OutgoingMail } from "./mail.schemas";

/** Where delivered mail goes: an SMTP server, or the dev mailbox table. */
export type MailTransport = { kind: "smtp" | "dev-mailbox"; send(mail: OutgoingMail): Promise<void> };

export function createMailTransport(db: Kysely<Database>, options: { smtpUrl?: string; from: string }): MailTransport {
  if (!options.smtpUrl) return { kind: "dev-mailbox", send: (mail) => insertDevMail(db, mail) };
  const smtp = nodemailer.createTransport(options.smtpUrl);
  return {
    kind: "smtp",
    async send(mail) {
      await smtp.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
  };
}

export type MailQueue = {
  /** Queues a mail in the outbox, inside `transaction` when the caller has one. */
  enqueue(mail: OutgoingMail, transaction?: Kysely<Database>): Promise<void>;
};

export function createMailQueue(db: Kysely<Database>, onQueued: () => void): MailQueue {
  return {
    async enqueue(mail, transaction) {
      await insertOutboxMail(transaction ?? db, mail);
      onQueued();
    },
  };
}
