import { createHmac } from "node:crypto";
import { backoffMs } from "../common/backoff";
import { serializeError } from "../common/serialize-error";
import type { SandboxLogger } from "./api-errors";
import type { Clock } from "./clock";
import type { WebhookEndpointRecord, WebhookEventRecord } from "./records";
import { newId } from "./shared";
import type { Store } from "./store";

/**
 * Webhook delivery as the provider does it: one stored event per endpoint, delivered FIFO per
 * endpoint (a failing event holds back the ones behind it), retried with exponential backoff, and
 * given up after `MAX_ATTEMPTS`. Every attempt is logged as a delivery. Failures never throw: the
 * app's receiver may not exist yet.
 */
export const MAX_ATTEMPTS = 10;
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * How long the delivery history is kept, on the sandbox clock. Every attempt adds a delivery and every
 * event carries its whole payload, so without pruning the file only grows. An age limit rather than the
 * last N per endpoint: the sandbox clock is moved forward to run renewals, and an age limit keeps what
 * happened in the last month of that calendar (a whole billing cycle to inspect) however many events it
 * had, in one indexed range delete. Events still waiting for delivery are never pruned.
 */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export type WebhookDispatcher = {
  /** Stores the event for every enabled endpoint subscribed to `type`, then schedules delivery. */
  emit(type: string, data: unknown): void;
  /** Sends the event again with the same webhook-id (the provider's "redeliver"). */
  redeliver(eventId: string): boolean;
  /** Resolves once nothing is deliverable right now (tests and the dashboard use it). */
  drain(): Promise<void>;
  close(): Promise<void>;
};

/** The provider's signature: the HMAC key is the UTF-8 bytes of the whole secret, `whsec_` included. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", Buffer.from(secret, "utf8")).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

type DispatcherOptions = {
  store: Store;
  clock: Clock;
  /** First retry delay; each further retry doubles it. */
  retryBaseMs: number;
  logger?: SandboxLogger;
};

export function createWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { store, clock, retryBaseMs } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let runAgain = false;
  let closed = false;

  const pendingByEndpoint = () => {
    const firstPending = new Map<string, WebhookEventRecord>();
    for (const event of store.pendingWebhookEvents()) {
      if (!firstPending.has(event.endpoint_id)) firstPending.set(event.endpoint_id, event);
    }
    return firstPending;
  };

  async function attempt(endpoint: WebhookEndpointRecord, event: WebhookEventRecord): Promise<boolean> {
    const timestamp = Math.floor(Date.now() / 1000);
    let httpCode: number | null = null;
    let response: string | null = null;
    try {
      const reply = await fetch(endpoint.url, {
        method: "POST",
        headers: {
          "user-agent": "polar.sh webhooks",
          "content-type": "application/json",
          "webhook-id": event.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(endpoint.secret, event.id, timestamp, event.payload),
        },
        body: event.payload,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      httpCode = reply.status;
      response = (await reply.text()).slice(0, 2000);
    } catch (error) {
      response = error instanceof Error ? error.message : String(error);
    }
    const succeeded = httpCode !== null && httpCode >= 200 && httpCode < 300;
    const now = clock.iso();
    store.put("webhook_delivery", {
      id: newId(),
      created_at: now,
      modified_at: null,
      webhook_event_id: event.id,
      succeeded,
      http_code: httpCode,
      response,
    });
    const attempts = event.attempts + 1;
    const exhausted = !succeeded && attempts >= MAX_ATTEMPTS;
    store.put("webhook_event", {
      ...event,
      modified_at: now,
      attempts,
      last_http_code: httpCode,
      succeeded: succeeded ? true : exhausted ? false : null,
      next_attempt_at: Date.now() + backoffMs(attempts, { baseMs: retryBaseMs }),
    });
    if (!succeeded)
      options.logger?.warn("webhook delivery failed", {
        url: endpoint.url,
        type: event.type,
        attempt: attempts,
        http_code: httpCode,
        response,
        gave_up: exhausted,
      });
    return succeeded;
  }

  async function runOnce(): Promise<void> {
    let progressed = true;
    while (progressed && !closed) {
      progressed = false;
      const due = [...pendingByEndpoint().values()].filter((event) => event.next_attempt_at <= Date.now());
      await Promise.all(
        due.map(async (event) => {
          const endpoint = store.get("webhook_endpoint", event.endpoint_id);
          if (!endpoint || !endpoint.enabled) {
            store.put("webhook_event", { ...event, succeeded: false });
            progressed = true;
            return;
          }
          if (await attempt(endpoint, event)) progressed = true;
        }),
      );
    }
  }

  const prune = () => store.pruneWebhookHistory(new Date(clock.now().getTime() - DELIVERY_RETENTION_MS).toISOString());

  function scheduleNext() {
    if (closed) return;
    const waiting = [...pendingByEndpoint().values()].map((event) => event.next_attempt_at);
    if (waiting.length === 0) return;
    const delay = Math.max(0, Math.min(...waiting) - Date.now());
    clearTimeout(timer);
    timer = setTimeout(kick, delay);
    timer.unref();
  }

  function kick(): Promise<void> {
    if (closed) return Promise.resolve();
    if (running) {
      runAgain = true;
      return running;
    }
    running = (async () => {
      do {
        runAgain = false;
        await runOnce();
      } while (runAgain && !closed);
      // Pruning after every run is periodic enough: only runs add deliveries.
      if (!closed) prune();
    })()
      .catch((error: unknown) => options.logger?.error("webhook dispatcher crashed", { error: serializeError(error) }))
      .finally(() => {
        running = undefined;
        scheduleNext();
      });
    return running;
  }

  return {
    emit(type, data) {
      const payload = JSON.stringify({ type, timestamp: clock.iso(), data });
      const now = clock.iso();
      for (const endpoint of store.list(
        "webhook_endpoint",
        (candidate) => candidate.enabled && candidate.events.includes(type),
      )) {
        store.put("webhook_event", {
          id: newId(),
          created_at: now,
          modified_at: null,
          endpoint_id: endpoint.id,
          type,
          payload,
          succeeded: null,
          last_http_code: null,
          attempts: 0,
          next_attempt_at: Date.now(),
        });
      }
      queueMicrotask(() => void kick());
    },
    redeliver(eventId) {
      const event = store.get("webhook_event", eventId);
      if (!event) return false;
      store.put("webhook_event", { ...event, succeeded: null, attempts: 0, next_attempt_at: Date.now() });
      queueMicrotask(() => void kick());
      return true;
    },
    async drain() {
      await kick();
      while (running) await running;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      if (running) await running;
    },
  };
}
