import type { Store } from "./store";

/** Sandbox time is real time plus an offset kept in the database, so advancing the clock survives restarts. */
export type Clock = {
  now(): Date;
  iso(): string;
  offsetMs(): number;
  advance(ms: number): void;
};

const OFFSET_KEY = "clock_offset_ms";

export function createClock(store: Store): Clock {
  const offsetMs = () => Number(store.getSetting(OFFSET_KEY) ?? "0");
  const now = () => new Date(Date.now() + offsetMs());
  return {
    now,
    iso: () => now().toISOString(),
    offsetMs,
    advance(ms) {
      store.setSetting(OFFSET_KEY, String(offsetMs() + ms));
    },
  };
}

/** Adds calendar intervals the way billing periods do (months keep the day of month where they can). */
export function addInterval(from: Date, interval: "day" | "week" | "month" | "year", count = 1): Date {
  const date = new Date(from);
  if (interval === "day") date.setUTCDate(date.getUTCDate() + count);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7 * count);
  else if (interval === "month") date.setUTCMonth(date.getUTCMonth() + count);
  else date.setUTCFullYear(date.getUTCFullYear() + count);
  return date;
}
