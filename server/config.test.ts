import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ConfigError, loadConfig } from "./config";

const SECRET = "s".repeat(16) + "e".repeat(16) + "cret";
const folders: string[] = [];

function tempDataDir(): string {
  const folder = mkdtempSync(path.join(tmpdir(), "atrium-config-"));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function problemsOf(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected loadConfig to refuse this environment");
}

describe("loadConfig", () => {
  test("development defaults work offline: SQLite in the data folder, dev mailbox and billing sandbox on", () => {
    const dataDir = tempDataDir();
    const config = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET });
    expect(config).toMatchObject({
      env: "development",
      isProduction: false,
      port: 3000,
      baseUrl: "http://localhost:3000",
      isHttps: false,
      database: { dialect: "sqlite", file: path.join(dataDir, "atrium.sqlite") },
      mail: { devMailbox: true },
      billingSandbox: true,
      trustedProxies: [],
    });
  });

  test("lists every bad variable at once", () => {
    const problems = problemsOf({ PORT: "eighty", LOG_LEVEL: "loud", AUTH_SECRET: "short", BASE_URL: "not a url", DEV_MAILBOX: "maybe" });
    const variables = problems.map((problem) => problem.split(":")[0]);
    expect(variables.sort()).toEqual(["AUTH_SECRET", "BASE_URL", "DEV_MAILBOX", "LOG_LEVEL", "PORT"]);
  });

  test("production refuses to start without AUTH_SECRET and SMTP_URL, naming both", () => {
    const problems = problemsOf({ NODE_ENV: "production", DATA_DIR: tempDataDir() });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^AUTH_SECRET: required in production/);
    expect(problems[1]).toMatch(/^SMTP_URL: required in production/);
  });

  test("production accepts DEV_MAILBOX=true instead of SMTP_URL", () => {
    const config = loadConfig({ NODE_ENV: "production", AUTH_SECRET: SECRET, DEV_MAILBOX: "true" });
    expect(config.mail.devMailbox).toBe(true);
    expect(problemsOf({ NODE_ENV: "production", DEV_MAILBOX: "true" })).toEqual([expect.stringMatching(/^AUTH_SECRET:/)]);
  });

  test("in production the dev mailbox and the billing sandbox are off unless enabled", () => {
    const base = { NODE_ENV: "production", AUTH_SECRET: SECRET, SMTP_URL: "smtp://mail.example.test:587" };
    expect(loadConfig(base)).toMatchObject({ isProduction: true, mail: { devMailbox: false, smtpUrl: "smtp://mail.example.test:587" }, billingSandbox: false });
    expect(loadConfig({ ...base, BILLING_SANDBOX: "true" }).billingSandbox).toBe(true);
    // With SMTP configured, mail goes to SMTP even if the dev mailbox is asked for.
    expect(loadConfig({ ...base, DEV_MAILBOX: "true" }).mail.devMailbox).toBe(false);
  });

  test("outside production AUTH_SECRET is generated once into the data folder and reused", () => {
    const dataDir = tempDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, "auth-secret");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8").trim()).toBe(first.authSecret);
    expect(first.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).authSecret).toBe(first.authSecret);
    expect(loadConfig({ DATA_DIR: tempDataDir() }).authSecret).not.toBe(first.authSecret);
  });

  test("a given AUTH_SECRET is used and nothing is written", () => {
    const dataDir = tempDataDir();
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).authSecret).toBe(SECRET);
    expect(existsSync(path.join(dataDir, "auth-secret"))).toBe(false);
  });

  test.each([
    ["postgres://app@db.example.test:5432/atrium", { dialect: "postgres", url: "postgres://app@db.example.test:5432/atrium" }],
    ["postgresql://app@db.example.test/atrium", { dialect: "postgres", url: "postgresql://app@db.example.test/atrium" }],
    ["file:./data/app.sqlite", { dialect: "sqlite", file: path.resolve("./data/app.sqlite") }],
    ["file:///var/lib/atrium/app.sqlite", { dialect: "sqlite", file: "/var/lib/atrium/app.sqlite" }],
    ["./data/other.sqlite", { dialect: "sqlite", file: path.resolve("./data/other.sqlite") }],
    [":memory:", { dialect: "sqlite", file: ":memory:" }],
  ])("DATABASE_URL %s", (url, database) => {
    expect(loadConfig({ DATABASE_URL: url, AUTH_SECRET: SECRET }).database).toEqual(database);
  });

  test("DATABASE_URL with another scheme is refused", () => {
    expect(problemsOf({ DATABASE_URL: "mysql://db.example.test/atrium", AUTH_SECRET: SECRET })).toEqual([expect.stringMatching(/^DATABASE_URL:/)]);
  });

  test("lists are trimmed: ADMIN_EMAILS in lowercase, TRUSTED_ORIGINS as origins, TRUSTED_PROXIES as given", () => {
    const config = loadConfig({
      AUTH_SECRET: SECRET,
      ADMIN_EMAILS: " Boss@Example.TEST , ,ops@example.test",
      TRUSTED_ORIGINS: "https://partner.example.test/some/path, http://localhost:5173",
      TRUSTED_PROXIES: "10.0.0.1, 10.0.0.2",
    });
    expect(config.adminEmails).toEqual(["boss@example.test", "ops@example.test"]);
    expect(config.trustedOrigins).toEqual(["https://partner.example.test", "http://localhost:5173"]);
    expect(config.trustedProxies).toEqual(["10.0.0.1", "10.0.0.2"]);
  });

  test("a TRUSTED_ORIGINS entry that is not a URL and a TRUSTED_PROXIES entry that is not an address are listed with the rest", () => {
    const problems = problemsOf({
      AUTH_SECRET: "short",
      TRUSTED_ORIGINS: "https://ok.example.test,partner.example.test",
      TRUSTED_PROXIES: "10.0.0.1,proxy.internal",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^AUTH_SECRET:/),
      "TRUSTED_ORIGINS: not an http(s) URL: partner.example.test",
      "TRUSTED_PROXIES: not an IP address: proxy.internal",
    ]);
  });

  test("an https BASE_URL is recognised and its trailing slash dropped", () => {
    const config = loadConfig({ AUTH_SECRET: SECRET, BASE_URL: "https://atrium.example.test/" });
    expect(config.baseUrl).toBe("https://atrium.example.test");
    expect(config.isHttps).toBe(true);
  });
});
