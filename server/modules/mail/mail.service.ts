import type { Kysely } from "kysely";
import type { Transporter } from "nodemailer";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { insertDevMail, insertOutboxMail } from "./mail.repository";
import type { OutgoingMail } from "./mail.schemas";

/**
 * Where delivered mail goes: an SMTP server, or the dev mailbox table. The outbox worker aborts `signal`
 * when it abandons a send that took too long; the SMTP transport then closes its connection.
 */
export type MailTransport = {
  kind: "smtp" | "dev-mailbox";
  send(mail: OutgoingMail, signal: AbortSignal): Promise<void>;
};

/**
 * nodemailer waits minutes by default (2 minutes to connect, 10 of socket inactivity). These keep each step
 * below the outbox worker's send timeout, so nodemailer normally gives up on a dead server by itself before
 * the worker has to abandon the send.
 */
export const SMTP_TIMEOUTS = {
  dnsTimeout: 5_000,
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 20_000,
} as const;

export function createMailTransport(db: Kysely<Database>, options: { smtpUrl?: string; from: string }): MailTransport {
  if (!options.smtpUrl) return { kind: "dev-mailbox", send: (mail) => insertDevMail(db, mail) };
  const { smtpUrl } = options;
  // nodemailer is loaded on the first mail: a deployment on the dev mailbox never holds it in memory.
  let smtp: Promise<Transporter> | undefined;
  return {
    kind: "smtp",
    async send(mail, signal) {
      smtp ??= import("nodemailer").then(({ default: nodemailer }) =>
        nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }),
      );
      await (
        await smtp
      ).sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, signal });
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
      // Inside a transaction better-auth runs, the mail is written in it: on SQLite the app's own connection is
      // the one the transaction holds, and the mail commits with the change that sent it.
      await insertOutboxMail(transaction ?? (await currentDatabase(db)), mail);
      onQueued();
    },
  };
}
