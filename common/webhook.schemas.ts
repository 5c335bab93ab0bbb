import { z } from "zod";
import { idSchema } from "./account.schemas";
import { URL_MAX_LENGTH } from "./account-limits";

/**
 * Outbound webhooks' shared contracts (docs/webhooks.md): the events an organization's endpoints can subscribe to,
 * the bodies of `POST`/`PATCH /api/organizations/{id}/webhooks`, and what the reads answer.
 */

export const WEBHOOK_EVENT_TYPES = [
  "member.added",
  "member.removed",
  "member.role_changed",
  "invitation.created",
  "invitation.accepted",
  "team.created",
  "team.deleted",
  "subscription.updated",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event the "send test event" button sends: to one endpoint, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT_TYPE = "webhook.test";

export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;

/** An http(s) URL; whether its host may be reached is the server's check (docs/webhooks.md, "Which URLs"). */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(URL_MAX_LENGTH, `Use at most ${URL_MAX_LENGTH} characters`)
  .regex(/^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i, "Enter an http or https URL");

export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: "Choose events from the list" }))
  .min(1, "Choose at least one event")
  .max(WEBHOOK_EVENT_TYPES.length, "Choose each event once")
  .transform((events) => [...new Set(events)]);

export const createWebhookSchema = z.strictObject({
  url: webhookUrlSchema,
  events: webhookEventsSchema,
  description: z
    .string()
    .trim()
    .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, `Use at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`)
    .optional(),
});
export type CreateWebhookInput = z.input<typeof createWebhookSchema>;

export const updateWebhookSchema = z
  .strictObject({ url: webhookUrlSchema, events: webhookEventsSchema, enabled: z.boolean() })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send url, events or enabled");
export type UpdateWebhookInput = z.input<typeof updateWebhookSchema>;

export const webhookParamsSchema = z.object({ organizationId: idSchema, webhookId: idSchema });
export const webhookDeliveryParamsSchema = webhookParamsSchema.extend({ deliveryId: idSchema });

/** One endpoint as its organization's owners and admins see it: the secret only through its own read. */
export type WebhookEndpoint = {
  id: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  enabled: boolean;
  /** Why the app turned it off: the endpoint answered 410 Gone, or deliveries failed for days. */
  disabledReason: "gone" | "failing" | null;
  createdAt: string;
};

/** The answer of a registration and of a rotation: the id and the secret that signs from now on. */
export type WebhookSecret = { id: string; secret: string };

/** One delivery attempt of the log. `deliveryId` names the message, which redeliver sends again. */
export type WebhookDeliveryAttempt = {
  id: string;
  deliveryId: string;
  eventType: string;
  attempt: number;
  attemptedAt: string;
  /** The answer's HTTP status; null when there was none (a timeout, a refused connection or address). */
  statusCode: number | null;
  durationMs: number;
  /** The first characters of the answer's body. */
  responseExcerpt: string | null;
  error: string | null;
  /** Where the message stands now: waiting (for its turn or a retry), delivered, or given up. */
  deliveryStatus: "pending" | "delivered" | "failed";
};
