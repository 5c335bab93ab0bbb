import { addDays } from "date-fns/addDays";
import { addMonths } from "date-fns/addMonths";
import { addWeeks } from "date-fns/addWeeks";
import { addYears } from "date-fns/addYears";
import type { RecurringInterval } from "./records";
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

/**
 * date-fns reads and writes a date's local calendar fields; sandbox times are UTC. This Date answers the
 * local accessors date-fns calls with their UTC twins, so a period never depends on the host's time zone.
 */
class UtcDate extends Date {
  override getFullYear() {
    return this.getUTCFullYear();
  }
  override getMonth() {
    return this.getUTCMonth();
  }
  override getDate() {
    return this.getUTCDate();
  }
  override getDay() {
    return this.getUTCDay();
  }
  override getHours() {
    return this.getUTCHours();
  }
  override getTimezoneOffset() {
    return 0;
  }
  override setFullYear(year: number, month?: number, date?: number) {
    return this.setUTCFullYear(year, month ?? this.getUTCMonth(), date ?? this.getUTCDate());
  }
  override setMonth(month: number, date?: number) {
    return this.setUTCMonth(month, date ?? this.getUTCDate());
  }
  override setDate(date: number) {
    return this.setUTCDate(date);
  }
  override setHours(hours: number, min?: number, sec?: number, ms?: number) {
    return this.setUTCHours(
      hours,
      min ?? this.getUTCMinutes(),
      sec ?? this.getUTCSeconds(),
      ms ?? this.getUTCMilliseconds(),
    );
  }
}
const inUtc = { in: (value: Date | number | string) => new UtcDate(value) };

/**
 * Adds calendar intervals the way billing periods do: a month later is the same day of the month, or the
 * month's last day when it is shorter (Jan 31 + 1 month = Feb 28, Feb 29 in a leap year), never Mar 3.
 */
export function addInterval(from: Date, interval: RecurringInterval, count = 1): Date {
  const add = { day: addDays, week: addWeeks, month: addMonths, year: addYears }[interval];
  return new Date(add(from, count, inUtc).getTime());
}

/**
 * The end of the `index`-th billing period (1 = the first) of a subscription anchored at `anchor`.
 * Every end is computed from the anchor, never from the previous end: chaining would clamp once and
 * stay clamped (Jan 31 → Feb 28 → Mar 28), the anchor keeps the day (Jan 31 → Feb 28 → Mar 31), as the provider does.
 */
export function periodEnd(anchor: Date, interval: RecurringInterval, count: number, index: number): Date {
  return addInterval(anchor, interval, count * index);
}

const DAY_MS = 86_400_000;

/** The first period end on the anchor's calendar that comes strictly after `instant` (the next renewal). */
export function nextPeriodEnd(anchor: Date, interval: RecurringInterval, count: number, instant: Date): Date {
  const months =
    (instant.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + instant.getUTCMonth() - anchor.getUTCMonth();
  const elapsedUnits = {
    day: (instant.getTime() - anchor.getTime()) / DAY_MS,
    week: (instant.getTime() - anchor.getTime()) / (7 * DAY_MS),
    month: months,
    year: months / 12,
  }[interval];
  // A close guess from the calendar, then a step or two to the exact period.
  let index = Math.max(1, Math.floor(elapsedUnits / count));
  while (index > 1 && periodEnd(anchor, interval, count, index - 1) > instant) index -= 1;
  while (periodEnd(anchor, interval, count, index) <= instant) index += 1;
  return periodEnd(anchor, interval, count, index);
}
