import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckoutRecord, CustomerSessionRecord, WebhookDeliveryRecord, WebhookEventRecord } from "./records";
import { openStore, STORE_SQL, type Store } from "./store";

let folder: string;
let file: string;
let store: Store;

const event = (id: string, succeeded: boolean | null, at: string): WebhookEventRecord => ({
  id,
  created_at: at,
  modified_at: succeeded === null ? null : at,
  endpoint_id: "endpoint",
  type: "order.created",
  payload: "{}",
  succeeded,
  last_http_code: null,
  attempts: succeeded === null ? 0 : 1,
  next_attempt_at: 0,
});
const delivery = (id: string, eventId: string, at: string): WebhookDeliveryRecord => ({
  id,
  created_at: at,
  modified_at: null,
  webhook_event_id: eventId,
  succeeded: true,
  http_code: 200,
  response: "ok",
});

beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), "billing-sandbox-store-"));
  file = path.join(folder, "sandbox.sqlite");
  store = openStore(file);
  for (let index = 0; index < 50; index += 1) {
    store.put("checkout", { id: `checkout-${index}`, client_secret: `polar_c_${index}` } as CheckoutRecord);
    store.put("customer_session", {
      id: `session-${index}`,
      token: `polar_cst_${index}`,
      customer_id: "customer",
    } as CustomerSessionRecord);
    store.put(
      "webhook_event",
      event(
        `event-${index}`,
        index % 10 === 0 ? null : true,
        `2025-01-${String(1 + (index % 28)).padStart(2, "0")}T00:00:00.000Z`,
      ),
    );
    store.put(
      "webhook_delivery",
      delivery(
        `delivery-${index}`,
        `event-${index}`,
        `2025-01-${String(1 + (index % 28)).padStart(2, "0")}T00:00:00.000Z`,
      ),
    );
  }
});
afterAll(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The plan SQLite picks for a statement, one line per step (`SEARCH records USING INDEX …`, `SCAN records`, …). */
function plan(sql: string, ...parameters: unknown[]): string[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return db
      .prepare(`explain query plan ${sql}`)
      .all(...parameters)
      .map((row) => (row as { detail: string }).detail);
  } finally {
    db.close();
  }
}

describe("store lookups", () => {
  it("finds a checkout by client secret and a customer session by token through their indexes", () => {
    expect(store.findBy("checkout", "client_secret", "polar_c_17")?.id).toBe("checkout-17");
    expect(store.findBy("customer_session", "token", "polar_cst_42")?.id).toBe("session-42");
    expect(store.findBy("checkout", "client_secret", "polar_c_missing")).toBeUndefined();

    const bySecret = plan(STORE_SQL.lookup("checkout"), "polar_c_17");
    expect(bySecret).toEqual([
      expect.stringMatching(/^SEARCH records USING INDEX records_checkout_client_secret \(<expr>=\?\)$/),
    ]);
    const byToken = plan(STORE_SQL.lookup("customer_session"), "polar_cst_42");
    expect(byToken).toEqual([
      expect.stringMatching(/^SEARCH records USING INDEX records_customer_session_token \(<expr>=\?\)$/),
    ]);
  });

  it("reads the pending webhook events through an index, oldest first", () => {
    expect(store.pendingWebhookEvents().map((pending) => pending.id)).toEqual([
      "event-0",
      "event-10",
      "event-20",
      "event-30",
      "event-40",
    ]);
    // The index keeps equal keys in rowid (seq) order, so no sort step follows the search.
    expect(plan(STORE_SQL.pendingWebhookEvents)).toEqual([
      expect.stringMatching(/^SEARCH records USING INDEX records_webhook_event_succeeded \(<expr>=\?\)$/),
    ]);
  });

  it("prunes the delivery history by range searches, never a scan", () => {
    const deliveries = plan(STORE_SQL.pruneWebhookDeliveries, "2025-01-15T00:00:00.000Z");
    expect(deliveries).toEqual([
      expect.stringMatching(
        /^SEARCH records USING INDEX records_webhook_delivery_created_at \(kind=\? AND <expr><\?\)$/,
      ),
    ]);
    const events = plan(STORE_SQL.pruneWebhookEvents, "2025-01-15T00:00:00.000Z");
    expect(events).toEqual([
      expect.stringMatching(
        /^SEARCH records USING INDEX records_webhook_event_last_attempt \(kind=\? AND <expr><\?\)$/,
      ),
    ]);
    for (const step of [...deliveries, ...events]) expect(step).not.toMatch(/^SCAN/);
  });

  it("prunes deliveries and settled events older than the cut-off, and keeps events still being delivered", () => {
    const cutoff = "2025-01-15T00:00:00.000Z";
    // Deliveries and events of days 1–14: indexes 0–13 and 28–41; the pending ones among them are 0, 10, 30 and 40.
    expect(store.pruneWebhookHistory(cutoff)).toEqual({ deliveries: 28, events: 24 });
    expect(store.list("webhook_delivery").every((kept) => kept.created_at >= cutoff)).toBe(true);
    expect(store.list("webhook_event", (kept) => kept.created_at < cutoff).map((kept) => kept.id)).toEqual([
      "event-0",
      "event-10",
      "event-30",
      "event-40",
    ]);
    expect(store.pendingWebhookEvents()).toHaveLength(5);
    expect(store.pruneWebhookHistory(cutoff)).toEqual({ deliveries: 0, events: 0 });
  });
});
