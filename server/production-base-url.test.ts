import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "./config";

const PRODUCTION = {
  NODE_ENV: "production",
  AUTH_SECRET: "s".repeat(16) + "e".repeat(16) + "cret",
  SMTP_URL: "smtp://mail.example.test:587",
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("BASE_URL in production", () => {
  test.each([
    "http://atrium.example.test",
    "http://203.0.113.7:3000",
    "http://[2001:db8::1]/",
    "HTTP://Atrium.Example.Test",
  ])("a public http address (%s) is refused with one line that says how to fix it", (baseUrl) => {
    const problems = problemsOf({ ...PRODUCTION, BASE_URL: baseUrl });
    expect(problems).toEqual([
      `BASE_URL: ${baseUrl} is a public http address, which production refuses: use an https address, or put Atrium behind a TLS proxy and set BASE_URL to its https address`,
    ]);
    expect(() => loadConfig({ ...PRODUCTION, BASE_URL: baseUrl })).toThrow(
      `Invalid configuration:\n  - ${problems[0]}`,
    );
  });

  test.each([
    "https://atrium.example.test",
    "http://127.0.0.1:3000",
    "http://127.1.2.3",
    "http://localhost:3000",
    "http://[::1]:3000",
  ])("%s is accepted", (baseUrl) => {
    expect(problemsOf({ ...PRODUCTION, BASE_URL: baseUrl })).toEqual([]);
  });

  test("without BASE_URL production uses the loopback default, http://localhost:$PORT", () => {
    expect(loadConfig(PRODUCTION).baseUrl).toBe("http://localhost:3000");
  });

  test("outside production a public http address is still accepted (development deployments)", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-config-"));
    try {
      const env = { ...PRODUCTION, NODE_ENV: "development", DATA_DIR: dataDir, DEVELOPMENT_DEPLOYMENT: "true" };
      expect(loadConfig({ ...env, BASE_URL: "http://atrium.example.test" }).baseUrl).toBe("http://atrium.example.test");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
