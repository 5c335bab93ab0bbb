import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { Kind, RecordKinds, WebhookEventRecord } from "./records";

/**
 * The sandbox's own SQLite file. Every object is one JSON document keyed by (kind, id); `seq` keeps
 * insertion order, which is the order lists and webhook deliveries follow. A sandbox holds a few
 * thousand objects at most, so filtering in JavaScript beats a schema per provider object; the lookups
 * that run on every request or delivery (below) read through expression indexes instead.
 */
export type Store = {
  get<K extends Kind>(kind: K, id: string): RecordKinds[K] | undefined;
  list<K extends Kind>(kind: K, predicate?: (record: RecordKinds[K]) => boolean): RecordKinds[K][];
  /** The record whose indexed field has this value (see `LOOKUPS`): a SEARCH of an index, not a SCAN of the kind. */
  findBy<K extends LookupKind>(kind: K, field: (typeof LOOKUPS)[K], value: string): RecordKinds[K] | undefined;
  /** Webhook events still to deliver (`succeeded` null), oldest first. */
  pendingWebhookEvents(): WebhookEventRecord[];
  /** Deletes deliveries made before `before`, and settled events whose last attempt was before it. */
  pruneWebhookHistory(before: string): { deliveries: number; events: number };
  put<K extends Kind>(kind: K, record: RecordKinds[K]): RecordKinds[K];
  getSetting(key: string): string | undefined;
  setSetting(key: string, value: string): void;
  transaction<T>(fn: () => T): T;
  /** Deletes every object and setting: the sandbox starts over (the seed runs again). */
  reset(): void;
  close(): void;
};

/** Fields looked up by value: the hosted checkout by its client secret, the portal by its customer-session token. */
const LOOKUPS = { checkout: "client_secret", customer_session: "token" } as const;
type LookupKind = keyof typeof LOOKUPS;

/**
 * The indexes and the statements that use them. Each index is partial (`where kind = '…'`), so a statement
 * must name its kind literally, not as a parameter, for SQLite to pick the index; tests check the plans.
 */
export const STORE_SQL = {
  lookup: (kind: LookupKind) =>
    `select data from records where kind = '${kind}' and json_extract(data, '$.${LOOKUPS[kind]}') = ? limit 1`,
  pendingWebhookEvents:
    "select data from records where kind = 'webhook_event' and json_extract(data, '$.succeeded') is null order by seq",
  pruneWebhookDeliveries:
    "delete from records where kind = 'webhook_delivery' and json_extract(data, '$.created_at') < ?",
  pruneWebhookEvents: `delete from records where kind = 'webhook_event' and coalesce(json_extract(data, '$.modified_at'), json_extract(data, '$.created_at')) < ?
    and json_extract(data, '$.succeeded') is not null`,
} as const;

const INDEXES = [
  ...Object.entries(LOOKUPS).map(
    ([kind, field]) =>
      `create index if not exists records_${kind}_${field} on records (json_extract(data, '$.${field}')) where kind = '${kind}'`,
  ),
  "create index if not exists records_webhook_event_succeeded on records (json_extract(data, '$.succeeded')) where kind = 'webhook_event'",
  // The range indexes lead with `kind` too: with the kind and the range both on one index, the planner
  // prefers it to the (kind, id) key, which would read every delivery of the kind.
  `create index if not exists records_webhook_event_last_attempt on records (kind, coalesce(json_extract(data, '$.modified_at'), json_extract(data, '$.created_at')))
    where kind = 'webhook_event'`,
  "create index if not exists records_webhook_delivery_created_at on records (kind, json_extract(data, '$.created_at')) where kind = 'webhook_delivery'",
];

export function openStore(file: string): Store {
  if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new SQLite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.exec(`
    create table if not exists records (
      seq integer primary key autoincrement,
      kind text not null,
      id text not null,
      data text not null,
      unique (kind, id)
    );
    create table if not exists settings (key text primary key, value text not null);
  `);
  for (const index of INDEXES) db.exec(index);
  const selectOne = db.prepare<[string, string], { data: string }>(
    "select data from records where kind = ? and id = ?",
  );
  const selectKind = db.prepare<[string], { data: string }>("select data from records where kind = ? order by seq");
  const lookups = Object.fromEntries(
    Object.keys(LOOKUPS).map((kind) => [
      kind,
      db.prepare<[string], { data: string }>(STORE_SQL.lookup(kind as LookupKind)),
    ]),
  ) as Record<LookupKind, SQLite.Statement<[string], { data: string }>>;
  const selectPending = db.prepare<[], { data: string }>(STORE_SQL.pendingWebhookEvents);
  const pruneDeliveries = db.prepare<[string]>(STORE_SQL.pruneWebhookDeliveries);
  const pruneEvents = db.prepare<[string]>(STORE_SQL.pruneWebhookEvents);
  const upsert = db.prepare(
    "insert into records (kind, id, data) values (?, ?, ?) on conflict (kind, id) do update set data = excluded.data",
  );
  const selectSetting = db.prepare<[string], { value: string }>("select value from settings where key = ?");
  const upsertSetting = db.prepare(
    "insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value",
  );

  return {
    get(kind, id) {
      const row = selectOne.get(kind, id);
      return row ? JSON.parse(row.data) : undefined;
    },
    list(kind, predicate) {
      const all = selectKind.all(kind).map((row) => JSON.parse(row.data));
      return predicate ? all.filter(predicate) : all;
    },
    findBy(kind, _field, value) {
      const row = lookups[kind].get(value);
      return row ? JSON.parse(row.data) : undefined;
    },
    pendingWebhookEvents: () => selectPending.all().map((row) => JSON.parse(row.data) as WebhookEventRecord),
    pruneWebhookHistory: (before) =>
      db.transaction(() => ({
        deliveries: pruneDeliveries.run(before).changes,
        events: pruneEvents.run(before).changes,
      }))(),
    put(kind, record) {
      upsert.run(kind, record.id, JSON.stringify(record));
      return record;
    },
    getSetting: (key) => selectSetting.get(key)?.value,
    setSetting: (key, value) => void upsertSetting.run(key, value),
    transaction: (fn) => db.transaction(fn)(),
    reset: () => db.exec("delete from records; delete from settings;"),
    close: () => db.close(),
  };
}
