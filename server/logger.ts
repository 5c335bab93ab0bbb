import { serializeError } from "../common/serialize-error";
import { currentRequestScope } from "./request-scope";

export { serializeError };

/** A small structured logger: one JSON line per event, on stderr for warnings and errors. */
export type Logger = {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

// Logs are kept and shipped more widely than the database: e-mail addresses (what better-auth and the
// mail transport put in their messages) never reach them.
const EMAIL_ADDRESS = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi;
export const REDACTED_EMAIL = "[email]";

export function redactEmails(text: string): string {
  return text.replace(EMAIL_ADDRESS, REDACTED_EMAIL);
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return serializeError(value);
  if (typeof value === "string") return redactEmails(value);
  if (typeof value === "bigint") return value.toString();
  return value;
}

/**
 * `base` is put on every line, before the line's own fields: several processes writing to one stream (the
 * workers of a cluster) say which one wrote each line with `{ pid }`. A line written while a request is handled
 * carries that request's `requestId` (server/request-scope.ts), the same id its answer carries.
 */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}): Logger {
  const threshold = LEVELS[level];
  const write = (name: Exclude<LogLevel, "silent">) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[name] < threshold) return;
    const line = JSON.stringify(
      {
        time: new Date().toISOString(),
        level: name,
        message,
        ...base,
        requestId: currentRequestScope()?.requestId,
        ...fields,
      },
      replacer,
    );
    (LEVELS[name] >= LEVELS.warn ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
