import type { Kysely, Selectable } from "kysely";
import type { WebhookEndpoint, WebhookEventType } from "../../../common/webhook.schemas";
import type { Database, WebhookEndpointTable } from "../../db/schema";

/**
 * The webhooks' tables (migration 0021): endpoints, the outbox of messages (`webhook_message`), attempts, and the
 * development receiver's inbox. Times are written as ISO text and read back as ISO text on both databases.
 */

export type EndpointRow = Selectable<WebhookEndpointTable>;

const iso = (value: Date | string) => new Date(value).toISOString();

/** An endpoint as its organization's owners and admins see it (no secret). */
export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    enabled: Boolean(row.enabled),
    disabledReason: (row.disabled_reason as WebhookEndpoint["disabledReason"]) ?? null,
    createdAt: iso(row.created_at),
  };
}

/** The secrets that sign a message sent at `now`: the current one, and the previous one until it expires. */
export function signingSecrets(
  row: Pick<EndpointRow, "secret" | "previous_secret" | "previous_secret_expires_at">,
  now: Date,
) {
  const previousValid =
    row.previous_secret && row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > now;
  return previousValid ? [row.secret, row.previous_secret as string] : [row.secret];
}

export async function insertEndpoint(
  db: Kysely<Database>,
  row: {
    id: string;
    organizationId: string;
    url: string;
    description: string | null;
    events: string[];
    secret: string;
  },
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("webhook_endpoint")
    .values({
      id: row.id,
      organization_id: row.organizationId,
      url: row.url,
      description: row.description,
      events: JSON.stringify(row.events),
      enabled: 1,
      secret: row.secret,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export function listEndpoints(db: Kysely<Database>, organizationId: string): Promise<EndpointRow[]> {
  return db
    .selectFrom("webhook_endpoint")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** One endpoint of the organization (never another organization's, whatever id is asked for). */
export function findEndpoint(db: Kysely<Database>, organizationId: string, id: string) {
  return db
    .selectFrom("webhook_endpoint")
    .selectAll()
    .where("organization_id", "=", organizationId)
    .where("id", "=", id)
    .executeTakeFirst();
}

export async function updateEndpoint(
  db: Kysely<Database>,
  id: string,
  set: Partial<{
    url: string;
    events: string[];
    enabled: boolean;
    disabledReason: string | null;
    failingSince: string | null;
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: string | null;
  }>,
): Promise<void> {
  await db
    .updateTable("webhook_endpoint")
    .set({
      ...(set.url !== undefined && { url: set.url }),
      ...(set.events !== undefined && { events: JSON.stringify(set.events) }),
      ...(set.enabled !== undefined && { enabled: Number(set.enabled) }),
      ...(set.disabledReason !== undefined && { disabled_reason: set.disabledReason }),
      ...(set.failingSince !== undefined && { failing_since: set.failingSince }),
      ...(set.secret !== undefined && { secret: set.secret }),
      ...(set.previousSecret !== undefined && { previous_secret: set.previousSecret }),
      ...(set.previousSecretExpiresAt !== undefined && { previous_secret_expires_at: set.previousSecretExpiresAt }),
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", id)
    .execute();
}

export async function deleteEndpoint(db: Kysely<Database>, organizationId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom("webhook_endpoint")
    .where("organization_id", "=", organizationId)
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The organization's enabled endpoints subscribed to `type`. */
export async function findSubscribedEndpoints(db: Kysely<Database>, organizationId: string, type: string) {
  const rows = await db
    .selectFrom("webhook_endpoint")
    .select(["id", "events"])
    .where("organization_id", "=", organizationId)
    .where("enabled", "=", 1)
    .execute();
  return rows.filter((row) => (JSON.parse(row.events) as string[]).includes(type)).map((row) => row.id);
}

export async function insertMessage(
  db: Kysely<Database>,
  message: { id: string; endpointId: string; type: string; payload: string; now: Date },
): Promise<void> {
  await db
    .insertInto("webhook_message")
    .values({
      id: message.id,
      endpoint_id: message.endpointId,
      event_type: message.type,
      payload: message.payload,
      status: "pending",
      next_attempt_at: message.now.toISOString(),
      created_at: message.now.toISOString(),
    })
    .execute();
}

export type DueMessage = { id: string; attempts: number };

/**
 * The messages due at `now` that are first in their endpoint's line: per enabled endpoint, the oldest message not yet
 * delivered or given up, when its time has come (a pending one's retry time, a `delivering` one's lease end). A
 * message waits while an older one of its endpoint is pending: that is the order per endpoint.
 */
export function findDueHeads(db: Kysely<Database>, now: Date, limit: number): Promise<DueMessage[]> {
  return db
    .selectFrom("webhook_message as m")
    .innerJoin("webhook_endpoint as e", "e.id", "m.endpoint_id")
    .select(["m.id", "m.attempts"])
    .where("e.enabled", "=", 1)
    .where("m.status", "in", ["pending", "delivering"])
    .where("m.next_attempt_at", "<=", now.toISOString())
    .where((eb) =>
      eb(
        "m.seq",
        "=",
        eb
          .selectFrom("webhook_message as older")
          .select((inner) => inner.fn.min("older.seq").as("seq"))
          .whereRef("older.endpoint_id", "=", "m.endpoint_id")
          .where("older.status", "in", ["pending", "delivering"]),
      ),
    )
    .orderBy("m.next_attempt_at")
    .limit(limit)
    .execute();
}

export type ClaimedMessage = {
  id: string;
  attempts: number;
  endpointId: string;
  eventType: string;
  payload: string;
};

/**
 * Claims a due message for this worker, as the mail outbox claims a mail (docs/decisions/0004): one update guarded by
 * the attempt count and by the message still being due moves it to `delivering` with a lease and counts the attempt.
 * Of two instances only one changes the row; the attempt count is the holder's proof.
 */
export async function claimMessage(
  db: Kysely<Database>,
  due: DueMessage,
  now: Date,
  leaseMs: number,
): Promise<ClaimedMessage | null> {
  const row = await db
    .updateTable("webhook_message")
    .set({
      status: "delivering",
      attempts: due.attempts + 1,
      next_attempt_at: new Date(now.getTime() + leaseMs).toISOString(),
    })
    .where("id", "=", due.id)
    .where("attempts", "=", due.attempts)
    .where("status", "in", ["pending", "delivering"])
    .where("next_attempt_at", "<=", now.toISOString())
    .returning(["id", "attempts", "endpoint_id", "event_type", "payload"])
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        attempts: row.attempts,
        endpointId: row.endpoint_id,
        eventType: row.event_type,
        payload: row.payload,
      }
    : null;
}

/**
 * Finishes a claimed message (delivered, given up, pending again at `retryAt`, or released unattempted) if this
 * worker still holds it; false when its lease was lost, and then the row is left alone.
 */
export async function finishMessage(
  db: Kysely<Database>,
  message: ClaimedMessage,
  outcome:
    | { status: "delivered" | "failed"; at: Date }
    | { status: "pending"; retryAt: Date }
    | { status: "released"; at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable("webhook_message")
    .set(
      outcome.status === "pending"
        ? { status: "pending", next_attempt_at: outcome.retryAt.toISOString() }
        : outcome.status === "released"
          ? // Not attempted after all: the claim's count is given back.
            { status: "pending", attempts: message.attempts - 1, next_attempt_at: outcome.at.toISOString() }
          : { status: outcome.status, finished_at: outcome.at.toISOString() },
    )
    .where("id", "=", message.id)
    .where("status", "=", "delivering")
    .where("attempts", "=", message.attempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertAttempt(
  db: Kysely<Database>,
  attempt: {
    id: string;
    messageId: string;
    endpointId: string;
    attempt: number;
    at: Date;
    statusCode: number | null;
    durationMs: number;
    responseExcerpt: string | null;
    error: string | null;
  },
): Promise<void> {
  await db
    .insertInto("webhook_attempt")
    .values({
      id: attempt.id,
      message_id: attempt.messageId,
      endpoint_id: attempt.endpointId,
      attempt: attempt.attempt,
      attempted_at: attempt.at.toISOString(),
      status_code: attempt.statusCode,
      duration_ms: attempt.durationMs,
      response_excerpt: attempt.responseExcerpt,
      error: attempt.error,
    })
    .execute();
}

/** The endpoint's latest attempts, newest first, with their message's type and where it stands now. */
export async function listAttempts(db: Kysely<Database>, endpointId: string, limit: number) {
  const rows = await db
    .selectFrom("webhook_attempt as a")
    .innerJoin("webhook_message as m", "m.id", "a.message_id")
    .select([
      "a.id",
      "a.message_id",
      "a.attempt",
      "a.attempted_at",
      "a.status_code",
      "a.duration_ms",
      "a.response_excerpt",
      "a.error",
      "m.event_type",
      "m.status",
    ])
    .where("a.endpoint_id", "=", endpointId)
    .orderBy("a.attempted_at", "desc")
    .orderBy("a.attempt", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, attempted_at: iso(row.attempted_at) }));
}

export function findMessage(db: Kysely<Database>, endpointId: string, messageId: string) {
  return db
    .selectFrom("webhook_message")
    .select(["id", "status"])
    .where("endpoint_id", "=", endpointId)
    .where("id", "=", messageId)
    .executeTakeFirst();
}

/**
 * Queues a message again, due at `now`: a delivered or given-up one starts over with a fresh count of attempts; a
 * pending one waiting for its retry is made due at once. One being delivered right now is left to its worker.
 */
export async function requeueMessage(db: Kysely<Database>, messageId: string, now: Date): Promise<void> {
  await db
    .updateTable("webhook_message")
    .set((eb) => ({
      status: "pending",
      next_attempt_at: now.toISOString(),
      finished_at: null,
      attempts: eb.case().when("status", "=", "pending").then(eb.ref("attempts")).else(0).end(),
    }))
    .where("id", "=", messageId)
    .where("status", "in", ["pending", "delivered", "failed"])
    .execute();
}

/**
 * Deletes at most `limit` messages delivered or given up before `before`, and with them (the foreign key's cascade)
 * their attempts: one statement, so one short transaction however large the backlog. The outer cutoff repeats the
 * inner one so that a message redelivered meanwhile (its `finished_at` cleared) is left alone: PostgreSQL re-checks a
 * row another transaction changed against the outer conditions. Only the cutoff is repeated there, so SQLite finds
 * the batch's rows by their key rather than reading the whole backlog from the index for each batch.
 * Answers how many messages went.
 */
export async function deleteFinishedMessagesBefore(db: Kysely<Database>, before: Date, limit: number): Promise<number> {
  const cutoff = before.toISOString();
  const result = await db
    .deleteFrom("webhook_message")
    .where("seq", "in", (eb) =>
      eb
        .selectFrom("webhook_message")
        .select("seq")
        .where("status", "in", ["delivered", "failed"])
        .where("finished_at", "<", cutoff)
        .limit(limit),
    )
    .where("finished_at", "<", cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findEndpointById(db: Kysely<Database>, id: string) {
  return db.selectFrom("webhook_endpoint").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The organization's owners, whom a disabled endpoint is mailed to. */
export function findOwners(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .innerJoin("organization", "organization.id", "member.organizationId")
    .select(["user.email", "user.name", "organization.name as organizationName"])
    .where("member.organizationId", "=", organizationId)
    .where((eb) =>
      eb.or([
        eb("member.role", "=", "owner"),
        eb("member.role", "like", "owner,%"),
        eb("member.role", "like", "%,owner"),
        eb("member.role", "like", "%,owner,%"),
      ]),
    )
    .execute();
}

export async function insertDevReceipt(
  db: Kysely<Database>,
  receipt: { id: string; headers: Record<string, string>; body: string; verified: boolean },
): Promise<void> {
  await db
    .insertInto("dev_webhook_receipt")
    .values({
      id: receipt.id,
      received_at: new Date().toISOString(),
      headers: JSON.stringify(receipt.headers),
      body: receipt.body,
      verified: Number(receipt.verified),
    })
    .execute();
}

/**
 * Deletes at most `limit` of the development receiver's receipts received before `before`: one statement, a short
 * transaction however full the inbox (its `received_at` index finds the batch). Answers how many went.
 */
export async function deleteDevReceiptsBefore(db: Kysely<Database>, before: Date, limit: number): Promise<number> {
  const cutoff = before.toISOString();
  const result = await db
    .deleteFrom("dev_webhook_receipt")
    .where("id", "in", (eb) =>
      eb.selectFrom("dev_webhook_receipt").select("id").where("received_at", "<", cutoff).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function listDevReceipts(db: Kysely<Database>, limit: number) {
  const rows = await db
    .selectFrom("dev_webhook_receipt")
    .selectAll()
    .orderBy("received_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    receivedAt: iso(row.received_at),
    headers: JSON.parse(row.headers) as Record<string, string>,
    body: row.body,
    verified: Boolean(row.verified),
  }));
}

/** The endpoints registered with this exact URL (the dev receiver checks a signature against their secrets). */
export function findEndpointsByUrl(db: Kysely<Database>, url: string) {
  return db
    .selectFrom("webhook_endpoint")
    .select(["secret", "previous_secret", "previous_secret_expires_at"])
    .where("url", "=", url)
    .execute();
}
