import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { WEBHOOK_ERROR_CODES } from "../../../common/error-codes";
import type { AuditContext } from "../audit";
import { recordAuditEvent } from "../audit";
import {
  WEBHOOK_TEST_EVENT_TYPE,
  type CreateWebhookInput,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
  type WebhookSecret,
} from "../../../common/webhook.schemas";
import type { Database } from "../../db/schema";
import { assertAllowedUrl, type AddressPolicy } from "./webhooks.address";
import { newMessageId, payloadOf } from "./webhooks.events";
import * as repository from "./webhooks.repository";
import { generateSecret } from "./webhooks.signing";

/** How long the previous secret still signs after a rotation, next to the new one. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3_600_000;
/** How many attempts the delivery log shows. */
export const DELIVERY_LOG_LIMIT = 100;
/**
 * Messages the purge of old history deletes per statement, with their attempts (eight each, and any redeliveries);
 * the development receiver's receipts go by the same number.
 */
const PURGE_BATCH = 500;

export type WebhookScope = { organizationId: string };
export type WebhookDeps = { db: Kysely<Database>; policy: AddressPolicy; nudge: () => void };

async function endpointOrThrow(db: Kysely<Database>, scope: WebhookScope, id: string) {
  const row = await repository.findEndpoint(db, scope.organizationId, id);
  if (!row) throw DomainError.of(WEBHOOK_ERROR_CODES.WEBHOOK_NOT_FOUND);
  return row;
}

function audit(
  db: Kysely<Database>,
  context: AuditContext,
  scope: WebhookScope,
  action: "created" | "updated" | "deleted" | "secret_rotated",
  details: Record<string, unknown>,
) {
  return recordAuditEvent(db, context, {
    action: `organization.webhook_${action}`,
    target: { type: "organization", id: scope.organizationId },
    organization: { id: scope.organizationId },
    details,
  });
}

/** Registers an endpoint (its URL checked first, outside the transaction); answers its id and its secret. */
export async function createWebhook(
  deps: WebhookDeps,
  scope: WebhookScope,
  input: Required<Pick<CreateWebhookInput, "url" | "events">> & { description?: string },
  context: AuditContext,
): Promise<WebhookSecret> {
  await assertAllowedUrl(input.url, deps.policy);
  const id = `wh_${randomUUID().replaceAll("-", "")}`;
  const secret = generateSecret();
  await deps.db.transaction().execute(async (trx) => {
    await repository.insertEndpoint(trx, {
      id,
      organizationId: scope.organizationId,
      url: input.url,
      description: input.description || null,
      events: input.events,
      secret,
    });
    await audit(trx, context, scope, "created", { webhookId: id, url: input.url, events: input.events });
  });
  return { id, secret };
}

export async function listWebhooks(db: Kysely<Database>, scope: WebhookScope): Promise<WebhookEndpoint[]> {
  return (await repository.listEndpoints(db, scope.organizationId)).map(repository.toEndpoint);
}

export async function getWebhook(db: Kysely<Database>, scope: WebhookScope, id: string): Promise<WebhookEndpoint> {
  return repository.toEndpoint(await endpointOrThrow(db, scope, id));
}

/** The secret that signs now, for the settings page's "reveal". */
export async function getWebhookSecret(db: Kysely<Database>, scope: WebhookScope, id: string): Promise<WebhookSecret> {
  return { id, secret: (await endpointOrThrow(db, scope, id)).secret };
}

/**
 * Changes an endpoint's URL (checked as at registration), events or whether it is enabled. Enabling one the app
 * turned off clears why, and its failures start counting afresh. Audited with what changed; no change, no entry.
 */
export async function updateWebhook(
  deps: WebhookDeps,
  scope: WebhookScope,
  id: string,
  input: { url?: string; events?: string[]; enabled?: boolean },
  context: AuditContext,
): Promise<WebhookEndpoint> {
  if (input.url !== undefined) await assertAllowedUrl(input.url, deps.policy);
  return deps.db.transaction().execute(async (trx) => {
    const current = await endpointOrThrow(trx, scope, id);
    const before = repository.toEndpoint(current);
    const changed: Record<string, unknown> = {};
    if (input.url !== undefined && input.url !== before.url) changed.url = input.url;
    if (input.events !== undefined && JSON.stringify(input.events) !== JSON.stringify(before.events))
      changed.events = input.events;
    if (input.enabled !== undefined && input.enabled !== before.enabled) changed.enabled = input.enabled;
    if (Object.keys(changed).length === 0) return before;
    await repository.updateEndpoint(trx, id, {
      url: changed.url as string | undefined,
      events: changed.events as string[] | undefined,
      enabled: changed.enabled as boolean | undefined,
      ...(changed.enabled === true && { disabledReason: null, failingSince: null }),
    });
    await audit(trx, context, scope, "updated", {
      webhookId: id,
      url: (changed.url as string) ?? before.url,
      ...changed,
    });
    deps.nudge();
    return repository.toEndpoint(await endpointOrThrow(trx, scope, id));
  });
}

export async function deleteWebhook(
  db: Kysely<Database>,
  scope: WebhookScope,
  id: string,
  context: AuditContext,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await endpointOrThrow(trx, scope, id);
    await repository.deleteEndpoint(trx, scope.organizationId, id);
    await audit(trx, context, scope, "deleted", { webhookId: id, url: current.url });
  });
}

/** A new secret signs from now on; the previous one signs next to it for a day, so receivers can switch over. */
export async function rotateWebhookSecret(
  db: Kysely<Database>,
  scope: WebhookScope,
  id: string,
  context: AuditContext,
  now: Date = new Date(),
): Promise<WebhookSecret> {
  const secret = generateSecret();
  await db.transaction().execute(async (trx) => {
    const current = await endpointOrThrow(trx, scope, id);
    await repository.updateEndpoint(trx, id, {
      secret,
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS).toISOString(),
    });
    await audit(trx, context, scope, "secret_rotated", { webhookId: id, url: current.url });
  });
  return { id, secret };
}

export async function listDeliveries(
  db: Kysely<Database>,
  scope: WebhookScope,
  id: string,
): Promise<WebhookDeliveryAttempt[]> {
  await endpointOrThrow(db, scope, id);
  return (await repository.listAttempts(db, id, DELIVERY_LOG_LIMIT)).map((row) => ({
    id: row.id,
    deliveryId: row.message_id,
    eventType: row.event_type,
    attempt: row.attempt,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    responseExcerpt: row.response_excerpt,
    error: row.error,
    deliveryStatus: row.status === "delivering" ? "pending" : row.status,
  }));
}

/** Sends a delivery again (the same message: the same `webhook-id` and body), due at once. */
export async function redeliver(
  deps: WebhookDeps,
  scope: WebhookScope,
  id: string,
  deliveryId: string,
): Promise<{ deliveryId: string }> {
  await endpointOrThrow(deps.db, scope, id);
  const message = await repository.findMessage(deps.db, id, deliveryId);
  if (!message) throw DomainError.of(WEBHOOK_ERROR_CODES.WEBHOOK_DELIVERY_NOT_FOUND);
  await repository.requeueMessage(deps.db, deliveryId, new Date());
  deps.nudge();
  return { deliveryId };
}

/** Queues a `webhook.test` event to one endpoint, whatever events it subscribes to. */
export async function sendTestEvent(
  deps: WebhookDeps,
  scope: WebhookScope,
  id: string,
): Promise<{ deliveryId: string }> {
  await endpointOrThrow(deps.db, scope, id);
  const deliveryId = newMessageId();
  const now = new Date();
  const data = { organizationId: scope.organizationId, webhookId: id, message: "A test event from the settings page" };
  await repository.insertMessage(deps.db, {
    id: deliveryId,
    endpointId: id,
    type: WEBHOOK_TEST_EVENT_TYPE,
    payload: payloadOf({ type: WEBHOOK_TEST_EVENT_TYPE, data }, now),
    now,
  });
  deps.nudge();
  return { deliveryId };
}

/** What a purge of old history is given: the retention, the clock, and optionally its batch size and stop signal. */
export type PurgeOptions = { retentionDays: number; now: Date; batchSize?: number; stopping?: AbortSignal };

/**
 * Runs `deleteBatch` (one statement deleting at most `limit` rows) batch after batch, with a turn of the event loop
 * between them (SQLite's driver is synchronous), until a batch comes back short or `stopping` is aborted; answers how
 * many rows went.
 */
async function purgeInBatches(
  deleteBatch: (before: Date, limit: number) => Promise<number>,
  options: PurgeOptions,
): Promise<number> {
  const before = new Date(options.now.getTime() - options.retentionDays * 86_400_000);
  const batchSize = options.batchSize ?? PURGE_BATCH;
  let purged = 0;
  for (;;) {
    const deleted = await deleteBatch(before, batchSize);
    purged += deleted;
    if (deleted < batchSize || options.stopping?.aborted) return purged;
    await nextTurn();
  }
}

/**
 * Deletes the delivery history older than `retentionDays`: messages delivered or given up before the cutoff, with
 * their attempts. Messages still to deliver (pending, being delivered, waiting for a retry or for their endpoint to
 * be turned back on) stay whatever their age. Answers how many messages went.
 */
export function purgeWebhookHistory(db: Kysely<Database>, options: PurgeOptions): Promise<number> {
  return purgeInBatches((before, limit) => repository.deleteFinishedMessagesBefore(db, before, limit), options);
}

/**
 * Deletes what the development receiver (/dev/webhooks) was sent longer ago than `retentionDays`, so its inbox keeps
 * what the delivery log keeps. Answers how many receipts went; none in production, where the receiver is not mounted.
 */
export function purgeDevWebhookReceipts(db: Kysely<Database>, options: PurgeOptions): Promise<number> {
  return purgeInBatches((before, limit) => repository.deleteDevReceiptsBefore(db, before, limit), options);
}
