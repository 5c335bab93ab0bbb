/** A small structured logger: one JSON line per event, on stderr for warnings and errors. */
export type Logger = {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export function createLogger(level: LogLevel): Logger {
  const threshold = LEVELS[level];
  const write = (name: Exclude<LogLevel, "silent">) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[name] < threshold) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: name, message, ...fields });
    (LEVELS[name] >= LEVELS.warn ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
