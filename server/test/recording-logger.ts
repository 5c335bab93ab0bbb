import type { Logger } from "../logger";

export type LogRecord = { level: keyof Logger; message: string; fields?: Record<string, unknown> };

/** A logger that keeps every line it is given in `records`, for tests that assert what was logged. */
export function recordingLogger(records: LogRecord[]): Logger {
  const record = (level: keyof Logger) => (message: string, fields?: Record<string, unknown>) =>
    void records.push({ level, message, fields });
  return { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
}
