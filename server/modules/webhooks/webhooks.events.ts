import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AuditAction } from "../../../common/audit.schemas";
import type { WebhookEventType } from "../../../common/webhook.schemas";
import type { Database } from "../../db/schema";
import type { AuditRecord } from "../audit";
import { findSubscribedEndpoints, insertMessage } from "./webhooks.repository";

/** One change to tell an organization's endpoints about. */
export type WebhookEvent = { organizationId: string; type: WebhookEventType | "webhook.test"; data: object };

/** A message id, sent as `webhook-id`: the same on every attempt and redelivery, for the receiver to deduplicate. */
export const newMessageId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/** The exact body a message sends: `{ type, timestamp, data }` (Standard Webhooks). */
export function payloadOf(event: Pick<WebhookEvent, "type" | "data">, at: Date): string {
  return JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data });
}

/**
 * The one helper that writes webhook events: given the transaction of the change, a message in the outbox for each of
 * the organization's enabled endpoints subscribed to the event, committed (or rolled back) with the change. Answers
 * the messages' ids.
 */
export async function queueWebhookEvent(db: Kysely<Database>, event: WebhookEvent): Promise<string[]> {
  const endpointIds = await findSubscribedEndpoints(db, event.organizationId, event.type);
  const now = new Date();
  const payload = payloadOf(event, now);
  const ids: string[] = [];
  for (const endpointId of endpointIds) {
    const id = newMessageId();
    await insertMessage(db, { id, endpointId, type: event.type, payload, now });
    ids.push(id);
  }
  return ids;
}

/** The organization changes that are webhook events, by the audit action that records them. */
const EVENT_OF_ACTION: Partial<Record<AuditAction, WebhookEventType>> = {
  "member.added": "member.added",
  "member.removed": "member.removed",
  "member.left": "member.removed",
  "member.role_changed": "member.role_changed",
  "invitation.sent": "invitation.created",
  "invitation.accepted": "invitation.accepted",
  "team.created": "team.created",
  "team.removed": "team.deleted",
};

/**
 * The organization operations' changes as webhook events, in the operation's transaction: an operation records an
 * audit entry exactly for a change that happened, so an event is queued exactly for those. The event's data is the
 * entry's: the organization, what it is about (`target`: a user, invitation or team, with its name then), and details.
 */
export async function publishOrganizationChanges(db: Kysely<Database>, records: readonly AuditRecord[]): Promise<void> {
  for (const record of records) {
    const type = EVENT_OF_ACTION[record.action];
    const organizationId = record.organization?.id;
    if (!type || !organizationId) continue;
    const target = record.target
      ? { type: record.target.type, id: record.target.id, label: record.target.label ?? null }
      : null;
    await queueWebhookEvent(db, { organizationId, type, data: { organizationId, target, ...record.details } });
  }
}
