import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { Kind, RecordKinds } from "./records";

/**
 * The sandbox's own SQLite file. Every object is one JSON document keyed by (kind, id); `seq` keeps
 * insertion order, which is the order lists and webhook deliveries follow. A sandbox holds a few
 * thousand objects at most, so filtering in JavaScript beats a schema per provider object.
 */
export type Store = {
  get<K extends Kind>(kind: K, id: string): RecordKinds[K] | undefined;
  list<K extends Kind>(kind: K, predicate?: (record: RecordKinds[K]) => boolean): RecordKinds[K][];
  put<K extends Kind>(kind: K, record: RecordKinds[K]): RecordKinds[K];
  getSetting(key: string): string | undefined;
  setSetting(key: string, value: string): void;
  transaction<T>(fn: () => T): T;
  /** Deletes every object and setting: the sandbox starts over (the seed runs again). */
  reset(): void;
  close(): void;
};

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
  const selectOne = db.prepare<[string, string], { data: string }>("select data from records where kind = ? and id = ?");
  const selectKind = db.prepare<[string], { data: string }>("select data from records where kind = ? order by seq");
  const upsert = db.prepare("insert into records (kind, id, data) values (?, ?, ?) on conflict (kind, id) do update set data = excluded.data");
  const selectSetting = db.prepare<[string], { value: string }>("select value from settings where key = ?");
  const upsertSetting = db.prepare("insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value");

  return {
    get(kind, id) {
      const row = selectOne.get(kind, id);
      return row ? JSON.parse(row.data) : undefined;
    },
    list(kind, predicate) {
      const all = selectKind.all(kind).map((row) => JSON.parse(row.data));
      return predicate ? all.filter(predicate) : all;
    },
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
