import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import type { Logger } from "../../logger";
import { mailTemplates, type MailQueue } from "../mail";
import type { AddressPolicy } from "./webhooks.address";
import { postWebhook } from "./webhooks.http";
import * as repository from "./webhooks.repository";
import { signatureHeader } from "./webhooks.signing";

/** After a failed attempt, the wait before the next: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; then it gives up. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** The longest one delivery may take, connection to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** An endpoint whose deliveries have all failed for this long is turned off and its owners are mailed. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;

export type DeliveryOptions = {
  db: Kysely<Database>;
  mail: MailQueue;
  logger: Logger;
  policy: AddressPolicy;
  baseUrl: string;
  /**
   * The clock retries and failure spans are measured on (tests move it). Signatures carry the real time, and a rotated
   * secret's day is measured on it too.
   */
  now: () => Date;
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  disableAfterFailingMs: number;
};

type Outcome = "delivered" | "retry" | "failed" | "gone";

function outcomeOf(statusCode: number | null, attempts: number, schedule: readonly number[]): Outcome {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return "delivered";
  if (statusCode === 410) return "gone";
  return attempts <= schedule.length ? "retry" : "failed";
}

/**
 * Delivers one claimed message: signs it with the endpoint's secrets, POSTs it (guarded, no redirects, bounded), and
 * in one transaction records the attempt and finishes the message (delivered, retried later, given up). A 410 turns the
 * endpoint off at once; failures for `disableAfterFailingMs` turn it off too; either way its owners are mailed.
 */
export async function deliverMessage(options: DeliveryOptions, message: repository.ClaimedMessage): Promise<void> {
  const { db } = options;
  const endpoint = await repository.findEndpointById(db, message.endpointId);
  if (!endpoint || !endpoint.enabled) {
    // Turned off (or deleted) since the message was found: it waits, as the endpoint's other messages do.
    if (endpoint) await repository.finishMessage(db, message, { status: "released", at: options.now() });
    return;
  }
  const signedAt = new Date();
  const headers = {
    "webhook-id": message.id,
    "webhook-timestamp": String(Math.floor(signedAt.getTime() / 1000)),
    "webhook-signature": signatureHeader(
      repository.signingSecrets(endpoint, signedAt),
      message.id,
      signedAt,
      message.payload,
    ),
    "user-agent": "Atrium-Webhooks/1",
  };
  const result = await postWebhook(endpoint.url, headers, message.payload, {
    timeoutMs: options.timeoutMs,
    policy: options.policy,
  });
  const statusCode = "statusCode" in result ? result.statusCode : null;
  const outcome = outcomeOf(statusCode, message.attempts, options.retryScheduleMs);
  const now = options.now();
  await db.transaction().execute(async (trx) => {
    await repository.insertAttempt(trx, {
      id: randomUUID(),
      messageId: message.id,
      endpointId: endpoint.id,
      attempt: message.attempts,
      at: now,
      statusCode,
      durationMs: result.durationMs,
      responseExcerpt: "excerpt" in result ? result.excerpt : null,
      error: "error" in result ? result.error : null,
    });
    const finished = await repository.finishMessage(
      trx,
      message,
      outcome === "retry"
        ? { status: "pending", retryAt: new Date(now.getTime() + options.retryScheduleMs[message.attempts - 1]!) }
        : { status: outcome === "delivered" ? "delivered" : "failed", at: now },
    );
    if (!finished) {
      options.logger.warn("webhook lease lost: another worker owns the message, its state is left alone", {
        id: message.id,
        attempt: message.attempts,
      });
      return;
    }
    if (outcome === "delivered") {
      if (endpoint.failing_since) await repository.updateEndpoint(trx, endpoint.id, { failingSince: null });
      return;
    }
    const failingSince = endpoint.failing_since ? new Date(endpoint.failing_since) : now;
    if (!endpoint.failing_since) await repository.updateEndpoint(trx, endpoint.id, { failingSince: now.toISOString() });
    const failedTooLong = now.getTime() - failingSince.getTime() >= options.disableAfterFailingMs;
    if (outcome === "gone" || failedTooLong) {
      const reason = outcome === "gone" ? "gone" : "failing";
      await repository.updateEndpoint(trx, endpoint.id, { enabled: false, disabledReason: reason });
      await mailOwners(options, trx, endpoint, reason);
      options.logger.warn("webhook endpoint turned off", { endpointId: endpoint.id, reason });
    }
  });
}

async function mailOwners(
  options: DeliveryOptions,
  trx: Kysely<Database>,
  endpoint: repository.EndpointRow,
  reason: "gone" | "failing",
): Promise<void> {
  const settingsUrl = `${options.baseUrl}/organizations/${endpoint.organization_id}/settings/webhooks`;
  for (const owner of await repository.findOwners(trx, endpoint.organization_id)) {
    const rendered = mailTemplates.webhookDisabledMail({
      name: owner.name,
      organizationName: owner.organizationName,
      url: endpoint.url,
      reason,
      settingsUrl,
    });
    await options.mail.enqueue({ to: owner.email, ...rendered }, trx);
  }
}
