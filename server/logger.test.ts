import { afterEach, describe, expect, test, vi } from "vitest";
import { createLogger, REDACTED_EMAIL } from "./logger";
import { runInRequestScope } from "./request-scope";

/** Captures what the logger writes, one parsed JSON object per line. */
function captureLines(): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  const capture = (chunk: string | Uint8Array) => {
    for (const line of String(chunk).split("\n").filter(Boolean))
      lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
  return lines;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("logger", () => {
  test("e-mail addresses never reach a log line, in the message or in any field", () => {
    const lines = captureLines();
    const logger = createLogger("info");
    logger.info("auth: Sign-up attempt for existing email: Jane.Doe+tag@Example.co.uk", {
      details: ["to alice@example.test", { to: "bob@example.test" }],
    });
    const text = JSON.stringify(lines);
    expect(text).not.toMatch(/example\.(co\.uk|test)/i);
    expect(lines[0]).toMatchObject({
      level: "info",
      message: `auth: Sign-up attempt for existing email: ${REDACTED_EMAIL}`,
      details: [`to ${REDACTED_EMAIL}`, { to: REDACTED_EMAIL }],
    });
  });

  test("an error in the fields is written as an object with its name, message, code, stack and cause", () => {
    const lines = captureLines();
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    createLogger("info").error("unhandled error", {
      error: new TypeError("boom", { cause }),
      details: [new RangeError("nested")],
    });
    const [line] = lines;
    expect(JSON.stringify(line)).not.toContain("[object Object]");
    expect(line).toMatchObject({
      level: "error",
      error: {
        name: "TypeError",
        message: "boom",
        cause: { name: "Error", message: "connect ECONNREFUSED 127.0.0.1:5432", code: "ECONNREFUSED" },
      },
      details: [{ name: "RangeError", message: "nested" }],
    });
    expect((line!.error as { stack: string }).stack).toContain("TypeError: boom");
  });

  test("lines below the level are dropped", () => {
    const lines = captureLines();
    const logger = createLogger("warn");
    logger.info("quiet");
    logger.warn("loud");
    expect(lines.map((line) => line.message)).toEqual(["loud"]);
  });

  test("base fields go on every line, after the time, level and message", () => {
    const lines = captureLines();
    const logger = createLogger("info", { pid: 4242 });
    logger.info("first");
    logger.warn("second", { worker: 1 });
    expect(lines).toEqual([
      { time: expect.any(String), level: "info", message: "first", pid: 4242 },
      { time: expect.any(String), level: "warn", message: "second", pid: 4242, worker: 1 },
    ]);
    expect(Object.keys(lines[1]!)).toEqual(["time", "level", "message", "pid", "worker"]);
  });

  test("a line written inside a request's scope carries its id, also after an await; one outside carries none", async () => {
    const lines = captureLines();
    const logger = createLogger("info");
    logger.info("before");
    await runInRequestScope({ requestId: "req-1", route: "/x" }, async () => {
      logger.info("inside");
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.warn("after a timer", { step: 2 });
    });
    logger.info("after");
    expect(lines.map(({ message, requestId }) => ({ message, requestId }))).toEqual([
      { message: "before", requestId: undefined },
      { message: "inside", requestId: "req-1" },
      { message: "after a timer", requestId: "req-1" },
      { message: "after", requestId: undefined },
    ]);
    expect(lines[2]).toMatchObject({ level: "warn", step: 2 });
  });
});
