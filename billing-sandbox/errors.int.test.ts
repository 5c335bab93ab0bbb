import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { SandboxLogger } from "./api-errors";
import { startHarness, type Harness } from "./test/harness";

/** An unhandled error inside the sandbox goes to the logger it was given, as an object, and never to the console. */
type Line = { level: keyof SandboxLogger; message: string; fields?: Record<string, unknown> };

const lines: Line[] = [];
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    logger: {
      warn: (message, fields) => void lines.push({ level: "warn", message, fields }),
      error: (message, fields) => void lines.push({ level: "error", message, fields }),
    },
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await harness?.close();
});

describe("an unhandled error in the sandbox", () => {
  it("is logged through the injected logger with its name, message, code and stack, and answered with a 500", async () => {
    const consoleError = vi.spyOn(console, "error");
    vi.spyOn(harness.sandbox.context.store, "list").mockImplementationOnce(() => {
      throw Object.assign(new Error("disk I/O error"), { code: "SQLITE_IOERR" });
    });

    const response = await harness.request("GET", "/v1/products");

    expect(response).toEqual({ status: 500, body: { error: "InternalServerError", detail: "disk I/O error" } });
    expect(lines).toEqual([
      {
        level: "error",
        message: "billing sandbox: unhandled error",
        fields: {
          method: "GET",
          path: "/v1/products",
          error: {
            name: "Error",
            message: "disk I/O error",
            code: "SQLITE_IOERR",
            stack: expect.stringContaining("disk I/O error"),
          },
        },
      },
    ]);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
