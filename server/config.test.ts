import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { ConfigError, loadConfig, MAX_WEB_CONCURRENCY } from "./config";

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
    const problems = problemsOf({
      PORT: "eighty",
      LOG_LEVEL: "loud",
      AUTH_SECRET: "short",
      BASE_URL: "not a url",
      DEV_MAILBOX: "maybe",
    });
    const variables = problems.map((problem) => problem.split(":")[0]);
    expect(variables.sort()).toEqual(["AUTH_SECRET", "BASE_URL", "DEV_MAILBOX", "LOG_LEVEL", "PORT"]);
  });

  test("production refuses to start without AUTH_SECRET and SMTP_URL, naming both", () => {
    const problems = problemsOf({ NODE_ENV: "production", DATA_DIR: tempDataDir() });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^AUTH_SECRET: required in production/);
    expect(problems[1]).toMatch(/^SMTP_URL: required in production/);
  });

  test("production refuses the dev mailbox, which would show every reset link to anyone, with or without SMTP_URL", () => {
    expect(problemsOf({ NODE_ENV: "production", AUTH_SECRET: SECRET, DEV_MAILBOX: "true" })).toEqual([
      expect.stringMatching(/^SMTP_URL: required in production/),
      expect.stringMatching(/^DEV_MAILBOX: not allowed in production/),
    ]);
    expect(
      problemsOf({
        NODE_ENV: "production",
        AUTH_SECRET: SECRET,
        SMTP_URL: "smtp://mail.example.test:587",
        DEV_MAILBOX: "1",
      }),
    ).toEqual([expect.stringMatching(/^DEV_MAILBOX: not allowed in production/)]);
  });

  test("in production the dev mailbox and the billing sandbox are off unless enabled; the sandbox then needs its own token", () => {
    const base = { NODE_ENV: "production", AUTH_SECRET: SECRET, SMTP_URL: "smtp://mail.example.test:587" };
    expect(loadConfig(base)).toMatchObject({
      isProduction: true,
      mail: { devMailbox: false, smtpUrl: "smtp://mail.example.test:587" },
      billingSandbox: false,
    });
    expect(problemsOf({ ...base, BILLING_SANDBOX: "true" })).toEqual([
      expect.stringMatching(/^SANDBOX_ACCESS_TOKEN: required in production/),
    ]);
    expect(problemsOf({ ...base, BILLING_SANDBOX: "true", SANDBOX_ACCESS_TOKEN: "guessable" })).toEqual([
      "SANDBOX_ACCESS_TOKEN: must be at least 32 characters in production",
    ]);
    expect(loadConfig({ ...base, BILLING_SANDBOX: "true", SANDBOX_ACCESS_TOKEN: SECRET })).toMatchObject({
      billingSandbox: true,
      sandbox: { accessToken: SECRET },
    });
  });

  test("billing talks to the built-in sandbox by default, to the real provider when its token, URL and webhook secret are set, and to none in production otherwise", () => {
    const dataDir = tempDataDir();
    const sandbox = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).billing;
    expect(sandbox).toMatchObject({
      provider: "sandbox",
      serverUrl: "http://localhost:3000/sandbox/polar",
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32,}$/),
    });
    // The generated webhook secret is kept with the data, so the sandbox's registered endpoint keeps working across restarts.
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).billing?.webhookSecret).toBe(sandbox?.webhookSecret);
    const real = {
      POLAR_ACCESS_TOKEN: "polar_oat_x",
      POLAR_SERVER_URL: "https://sandbox-api.polar.sh/",
      POLAR_WEBHOOK_SECRET: "whsec_abc",
    };
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, ...real }).billing).toEqual({
      provider: "polar",
      serverUrl: "https://sandbox-api.polar.sh",
      accessToken: "polar_oat_x",
      webhookSecret: "whsec_abc",
    });
    expect(problemsOf({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, POLAR_ACCESS_TOKEN: "polar_oat_x" })).toEqual([
      "POLAR_ACCESS_TOKEN and POLAR_SERVER_URL: set both (the real provider) or neither (the built-in sandbox)",
    ]);
    expect(problemsOf({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, ...real, POLAR_WEBHOOK_SECRET: undefined })).toEqual([
      expect.stringMatching(/^POLAR_WEBHOOK_SECRET: required with POLAR_ACCESS_TOKEN/),
    ]);
    expect(
      loadConfig({ NODE_ENV: "production", AUTH_SECRET: SECRET, SMTP_URL: "smtp://mail.example.test:587" }).billing,
    ).toBeNull();
  });

  test("sign-in providers: the dev identity provider outside production (or when enabled), GitHub, Google and any OpenID Connect issuer when configured", () => {
    const dataDir = tempDataDir();
    const development = loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET });
    expect(development.socialProviders).toEqual([
      {
        id: "dev",
        name: "Dev identity provider",
        issuer: "http://localhost:3000/dev/oidc",
        clientId: "atrium",
        clientSecret: expect.stringMatching(/^[\w-]{43}$/),
      },
    ]);
    // Derived from the auth secret: the same on every start, and unguessable.
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).socialProviders[0]?.clientSecret).toBe(
      development.socialProviders[0]?.clientSecret,
    );

    const production = { NODE_ENV: "production", AUTH_SECRET: SECRET, SMTP_URL: "smtp://mail.example.test:587" };
    expect(loadConfig(production).socialProviders).toEqual([]);
    expect(
      loadConfig({ ...production, DEV_IDENTITY_PROVIDER: "true" }).socialProviders.map((provider) => provider.id),
    ).toEqual(["dev"]);

    const configured = loadConfig({
      ...production,
      GITHUB_CLIENT_ID: "gh-id",
      GITHUB_CLIENT_SECRET: "gh-secret",
      OIDC_ISSUER: "https://login.example.test/realms/acme/",
      OIDC_CLIENT_ID: "atrium",
      OIDC_CLIENT_SECRET: "oidc-secret",
    });
    expect(configured.socialProviders).toEqual([
      { id: "github", name: "GitHub", clientId: "gh-id", clientSecret: "gh-secret" },
      {
        id: "oidc",
        name: "login.example.test",
        issuer: "https://login.example.test/realms/acme",
        clientId: "atrium",
        clientSecret: "oidc-secret",
      },
    ]);
    expect(
      loadConfig({
        ...production,
        OIDC_ISSUER: "https://login.example.test",
        OIDC_CLIENT_ID: "a",
        OIDC_CLIENT_SECRET: "b",
        OIDC_NAME: "Acme SSO",
      }).socialProviders[0]?.name,
    ).toBe("Acme SSO");
    expect(problemsOf({ ...production, OIDC_ISSUER: "https://login.example.test" })).toEqual([
      "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three (an OpenID Connect provider) or none",
    ]);
    expect(problemsOf({ ...production, GOOGLE_CLIENT_ID: "g" })).toEqual([
      "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither",
    ]);
  });

  test("a bad PORT does not hide the production problems: every one is listed", () => {
    const problems = problemsOf({
      NODE_ENV: "production",
      PORT: "eighty",
      DEV_MAILBOX: "true",
      BILLING_SANDBOX: "true",
    });
    expect(problems.map((problem) => problem.split(":")[0])).toEqual([
      "PORT",
      "AUTH_SECRET",
      "SMTP_URL",
      "DEV_MAILBOX",
      "SANDBOX_ACCESS_TOKEN",
    ]);
  });

  test.each([
    ["HOST", { HOST: "0.0.0.0" }],
    ["HOST", { HOST: "::" }],
    ["HOST", { HOST: "10.1.2.3" }],
    ["BASE_URL", { BASE_URL: "https://atrium.example.test" }],
  ])("development mode refuses to face a network (%s %o) unless DEVELOPMENT_DEPLOYMENT=true", (variable, env) => {
    for (const mode of [{}, { NODE_ENV: "development" }, { NODE_ENV: "test" }]) {
      const problems = problemsOf({ AUTH_SECRET: SECRET, DATA_DIR: tempDataDir(), ...mode, ...env });
      expect(problems).toEqual([
        expect.stringMatching(
          new RegExp(`^${variable}: .*set NODE_ENV=production for a real deployment, or DEVELOPMENT_DEPLOYMENT=true`),
        ),
      ]);
    }
    expect(
      loadConfig({ AUTH_SECRET: SECRET, DATA_DIR: tempDataDir(), DEVELOPMENT_DEPLOYMENT: "true", ...env }).env,
    ).toBe("development");
  });

  test.each(["127.0.0.1", "127.0.1.1", "localhost", "::1"])(
    "development mode listens on the loopback address %s",
    (host) => {
      expect(loadConfig({ AUTH_SECRET: SECRET, DATA_DIR: tempDataDir(), HOST: host }).host).toBe(host);
    },
  );

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
    [
      "postgres://app@db.example.test:5432/atrium",
      { dialect: "postgres", url: "postgres://app@db.example.test:5432/atrium" },
    ],
    [
      "postgresql://app@db.example.test/atrium",
      { dialect: "postgres", url: "postgresql://app@db.example.test/atrium" },
    ],
    ["file:./data/app.sqlite", { dialect: "sqlite", file: path.resolve("./data/app.sqlite") }],
    ["file:///var/lib/atrium/app.sqlite", { dialect: "sqlite", file: "/var/lib/atrium/app.sqlite" }],
    ["./data/other.sqlite", { dialect: "sqlite", file: path.resolve("./data/other.sqlite") }],
    [":memory:", { dialect: "sqlite", file: ":memory:" }],
  ])("DATABASE_URL %s", (url, database) => {
    expect(loadConfig({ DATABASE_URL: url, AUTH_SECRET: SECRET }).database).toEqual(database);
  });

  test("DATABASE_URL with another scheme is refused", () => {
    expect(problemsOf({ DATABASE_URL: "mysql://db.example.test/atrium", AUTH_SECRET: SECRET })).toEqual([
      expect.stringMatching(/^DATABASE_URL:/),
    ]);
  });

  test("lists are trimmed: ADMIN_EMAILS in lowercase, TRUSTED_ORIGINS as origins, TRUSTED_PROXIES as given", () => {
    const config = loadConfig({
      AUTH_SECRET: SECRET,
      ADMIN_EMAILS: " Boss@Example.TEST , ,ops@example.test",
      TRUSTED_ORIGINS: "https://partner.example.test/some/path, http://localhost:5173",
      TRUSTED_PROXIES: "10.0.0.1, 10.0.0.0/8, fd00::/8, loopback",
    });
    expect(config.adminEmails).toEqual(["boss@example.test", "ops@example.test"]);
    expect(config.trustedOrigins).toEqual(["https://partner.example.test", "http://localhost:5173"]);
    expect(config.trustedProxies).toEqual(["10.0.0.1", "10.0.0.0/8", "fd00::/8", "loopback"]);
  });

  test("a TRUSTED_ORIGINS entry that is not a URL and a TRUSTED_PROXIES entry that is not an address are listed with the rest", () => {
    const problems = problemsOf({
      AUTH_SECRET: "short",
      TRUSTED_ORIGINS: "https://ok.example.test,partner.example.test",
      TRUSTED_PROXIES: "10.0.0.1,proxy.internal,10.0.0.0/33",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^AUTH_SECRET:/),
      "TRUSTED_ORIGINS: not an http(s) URL: partner.example.test",
      "TRUSTED_PROXIES: not an IP address, a CIDR range or loopback/linklocal/uniquelocal: proxy.internal",
      "TRUSTED_PROXIES: not an IP address, a CIDR range or loopback/linklocal/uniquelocal: 10.0.0.0/33",
    ]);
  });

  describe("WEB_CONCURRENCY", () => {
    // The development defaults switch on what one process must keep to itself; a cluster needs both off.
    const clusterable = { AUTH_SECRET: SECRET, DEV_IDENTITY_PROVIDER: "false", BILLING_SANDBOX: "false" };

    test("defaults to one process; a whole number or auto (one per core) asks for more", () => {
      expect(loadConfig({ ...clusterable, DATA_DIR: tempDataDir() }).webConcurrency).toBe(1);
      expect(loadConfig({ ...clusterable, WEB_CONCURRENCY: "" }).webConcurrency).toBe(1);
      expect(loadConfig({ ...clusterable, WEB_CONCURRENCY: "1" }).webConcurrency).toBe(1);
      expect(loadConfig({ ...clusterable, WEB_CONCURRENCY: " 4 " }).webConcurrency).toBe(4);
      expect(loadConfig({ ...clusterable, WEB_CONCURRENCY: String(MAX_WEB_CONCURRENCY) }).webConcurrency).toBe(
        MAX_WEB_CONCURRENCY,
      );
      expect(loadConfig({ ...clusterable, WEB_CONCURRENCY: "auto" }).webConcurrency).toBe(availableParallelism());
      expect(loadConfig({ ...clusterable, WEB_CONCURRENCY: "AUTO" }).webConcurrency).toBe(availableParallelism());
    });

    test.each(["0", "-2", "1.5", "two", "1e3", "0x10", String(MAX_WEB_CONCURRENCY + 1)])(
      "%s is refused and listed with the other problems",
      (value) => {
        expect(problemsOf({ ...clusterable, WEB_CONCURRENCY: value, PORT: "eighty" })).toEqual([
          "PORT: must be a port number from 0 to 65535",
          `WEB_CONCURRENCY: must be a whole number of processes from 1 to ${MAX_WEB_CONCURRENCY}, or auto (one per CPU core)`,
        ]);
      },
    );

    test("several processes refuse the development identity provider and the billing sandbox, which live in one process's memory", () => {
      expect(problemsOf({ AUTH_SECRET: SECRET, DATA_DIR: tempDataDir(), WEB_CONCURRENCY: "2" })).toEqual([
        "DEV_IDENTITY_PROVIDER: the development identity provider (on by default outside production) keeps its sign-in state in one process's memory and cannot run in WEB_CONCURRENCY=2 processes: set DEV_IDENTITY_PROVIDER=false, or WEB_CONCURRENCY=1 for one process",
        "BILLING_SANDBOX: the billing sandbox (on by default outside production) keeps its database file, webhook deliveries and clock in one process and cannot run in WEB_CONCURRENCY=2 processes: set BILLING_SANDBOX=false, or WEB_CONCURRENCY=1 for one process",
      ]);
      expect(problemsOf({ ...clusterable, WEB_CONCURRENCY: "3", DEV_IDENTITY_PROVIDER: "true" })).toEqual([
        expect.stringMatching(
          /^DEV_IDENTITY_PROVIDER: the development identity provider keeps .* WEB_CONCURRENCY=3 processes: set DEV_IDENTITY_PROVIDER=false/,
        ),
      ]);
      expect(problemsOf({ ...clusterable, WEB_CONCURRENCY: "3", BILLING_SANDBOX: "1" })).toEqual([
        expect.stringMatching(
          /^BILLING_SANDBOX: the billing sandbox keeps .* WEB_CONCURRENCY=3 processes: set BILLING_SANDBOX=false/,
        ),
      ]);
      // With one process both stay on, as before.
      expect(loadConfig({ AUTH_SECRET: SECRET, DATA_DIR: tempDataDir(), WEB_CONCURRENCY: "1" })).toMatchObject({
        webConcurrency: 1,
        billingSandbox: true,
        socialProviders: [{ id: "dev" }],
      });
    });

    test("in production both are off by default, so a cluster needs nothing more; enabling either is refused", () => {
      const production = {
        NODE_ENV: "production",
        AUTH_SECRET: SECRET,
        SMTP_URL: "smtp://mail.example.test:587",
        WEB_CONCURRENCY: "8",
      };
      expect(loadConfig(production)).toMatchObject({ webConcurrency: 8, billingSandbox: false, socialProviders: [] });
      expect(
        problemsOf({ ...production, DEV_IDENTITY_PROVIDER: "true" }).map((problem) => problem.split(":")[0]),
      ).toEqual(["DEV_IDENTITY_PROVIDER"]);
      expect(
        problemsOf({ ...production, BILLING_SANDBOX: "true", SANDBOX_ACCESS_TOKEN: SECRET }).map(
          (problem) => problem.split(":")[0],
        ),
      ).toEqual(["BILLING_SANDBOX"]);
    });
  });

  test("an https BASE_URL is recognised and its trailing slash dropped", () => {
    const config = loadConfig({
      AUTH_SECRET: SECRET,
      BASE_URL: "https://atrium.example.test/",
      DEVELOPMENT_DEPLOYMENT: "true",
    });
    expect(config.baseUrl).toBe("https://atrium.example.test");
    expect(config.isHttps).toBe(true);
  });

  test("shutdown waits: 5 s of serving after SIGTERM in production, none elsewhere; 30 s for what is in flight", () => {
    const dataDir = tempDataDir();
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).shutdown).toEqual({ delayMs: 0, timeoutMs: 30_000 });
    const production = {
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      AUTH_SECRET: SECRET,
      SMTP_URL: "smtp://mail.example.test:587",
    };
    expect(loadConfig(production).shutdown).toEqual({ delayMs: 5_000, timeoutMs: 30_000 });
    expect(loadConfig({ ...production, SHUTDOWN_DELAY_MS: "0", SHUTDOWN_TIMEOUT_MS: "120000" }).shutdown).toEqual({
      delayMs: 0,
      timeoutMs: 120_000,
    });
  });

  test("a shutdown wait that is not a whole number of milliseconds from 0 to 600000 is refused, naming the variable", () => {
    const dataDir = tempDataDir();
    expect(
      problemsOf({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, SHUTDOWN_DELAY_MS: "5s", SHUTDOWN_TIMEOUT_MS: "-1" }),
    ).toEqual([
      "SHUTDOWN_DELAY_MS: must be a whole number of milliseconds (how long the server keeps serving after SIGTERM while readiness says it is stopping)",
      "SHUTDOWN_TIMEOUT_MS: must be 0 or more milliseconds (how long in-flight requests and jobs may take to finish after that)",
    ]);
    expect(
      problemsOf({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, SHUTDOWN_DELAY_MS: "600001", SHUTDOWN_TIMEOUT_MS: "1.5" }),
    ).toEqual([
      "SHUTDOWN_DELAY_MS: must be at most 600000 milliseconds (how long the server keeps serving after SIGTERM while readiness says it is stopping)",
      "SHUTDOWN_TIMEOUT_MS: must be a whole number of milliseconds (how long in-flight requests and jobs may take to finish after that)",
    ]);
  });

  test("METRICS_TOKEN publishes /metrics; a short one is refused", () => {
    const dataDir = tempDataDir();
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET }).metricsToken).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, METRICS_TOKEN: "" }).metricsToken).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, METRICS_TOKEN: SECRET }).metricsToken).toBe(SECRET);
    expect(problemsOf({ DATA_DIR: dataDir, AUTH_SECRET: SECRET, METRICS_TOKEN: "short" })).toEqual([
      "METRICS_TOKEN: must be at least 16 characters (it guards the metrics endpoint)",
    ]);
  });

  test("webhooks reach private targets and the development receiver answers outside production only", () => {
    const production = { NODE_ENV: "production", AUTH_SECRET: SECRET, SMTP_URL: "smtp://mail.example.test:587" };
    const development = { AUTH_SECRET: SECRET, DATA_DIR: tempDataDir() };
    expect(loadConfig(development).webhooks).toEqual({
      allowPrivateTargets: true,
      devReceiver: true,
      retentionDays: 30,
    });
    expect(loadConfig(production).webhooks).toEqual({
      allowPrivateTargets: false,
      devReceiver: false,
      retentionDays: 30,
    });
    expect(loadConfig({ ...production, WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" }).webhooks).toEqual({
      allowPrivateTargets: true,
      devReceiver: false,
      retentionDays: 30,
    });
  });

  test("WEBHOOK_RETENTION_DAYS is whole days from 1 to 3650", () => {
    const base = { AUTH_SECRET: SECRET, DATA_DIR: tempDataDir() };
    expect(loadConfig({ ...base, WEBHOOK_RETENTION_DAYS: "7" }).webhooks.retentionDays).toBe(7);
    expect(loadConfig({ ...base, WEBHOOK_RETENTION_DAYS: "3650" }).webhooks.retentionDays).toBe(3650);
    expect(problemsOf({ ...base, WEBHOOK_RETENTION_DAYS: "0" })).toEqual([
      "WEBHOOK_RETENTION_DAYS: use at least 1 day",
    ]);
    expect(problemsOf({ ...base, WEBHOOK_RETENTION_DAYS: "1.5" })).toEqual(["WEBHOOK_RETENTION_DAYS: use whole days"]);
    expect(problemsOf({ ...base, WEBHOOK_RETENTION_DAYS: "3651" })).toEqual([
      "WEBHOOK_RETENTION_DAYS: use at most 3650 days",
    ]);
  });

  test("MAIL_SEND_TIMEOUT_MS is whole milliseconds from 1000 to 600000, 30000 by default", () => {
    const base = { AUTH_SECRET: SECRET, DATA_DIR: tempDataDir() };
    expect(loadConfig(base).mail.sendTimeoutMs).toBe(30_000);
    expect(loadConfig({ ...base, MAIL_SEND_TIMEOUT_MS: "120000" }).mail.sendTimeoutMs).toBe(120_000);
    expect(problemsOf({ ...base, MAIL_SEND_TIMEOUT_MS: "999" })).toEqual([
      "MAIL_SEND_TIMEOUT_MS: use at least 1000 milliseconds",
    ]);
    expect(problemsOf({ ...base, MAIL_SEND_TIMEOUT_MS: "600001" })).toEqual([
      "MAIL_SEND_TIMEOUT_MS: use at most 600000 milliseconds (10 minutes)",
    ]);
  });

  describe("SSO domain verification's DNS", () => {
    const production = { NODE_ENV: "production", AUTH_SECRET: SECRET, SMTP_URL: "smtp://mail.example.test:587" };

    test("DNS_SERVERS takes IP addresses with optional ports; the system's resolvers without it", () => {
      expect(loadConfig({ ...production }).dns).toEqual({ servers: [], devServer: false });
      expect(loadConfig({ ...production, DNS_SERVERS: "1.1.1.1, 127.0.0.1:5353,[::1]:53,::1" }).dns.servers).toEqual([
        "1.1.1.1",
        "127.0.0.1:5353",
        "[::1]:53",
        "::1",
      ]);
      expect(problemsOf({ ...production, DNS_SERVERS: "dns.example.com,1.1.1.1:99999,1.1.1.1" })).toEqual([
        "DNS_SERVERS: not an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53): dns.example.com",
        "DNS_SERVERS: not an IP address with an optional port (1.1.1.1, 127.0.0.1:5353, [::1]:53): 1.1.1.1:99999",
      ]);
    });

    test("the development DNS server is on outside production in one process, off in production unless asked", () => {
      const development = { AUTH_SECRET: SECRET, DATA_DIR: tempDataDir() };
      expect(loadConfig(development).dns.devServer).toBe(true);
      expect(loadConfig({ ...development, DEV_DNS_SERVER: "false" }).dns.devServer).toBe(false);
      expect(loadConfig(production).dns.devServer).toBe(false);
      expect(loadConfig({ ...production, DEV_DNS_SERVER: "true" }).dns.devServer).toBe(true);
      const cluster = {
        ...development,
        WEB_CONCURRENCY: "2",
        DEV_IDENTITY_PROVIDER: "false",
        BILLING_SANDBOX: "false",
      };
      expect(loadConfig(cluster).dns.devServer).toBe(false);
      expect(problemsOf({ ...cluster, DEV_DNS_SERVER: "true" })).toEqual([
        "DEV_DNS_SERVER: the development DNS server keeps its records in one process's memory and cannot run in WEB_CONCURRENCY=2 processes: set DEV_DNS_SERVER=false, or WEB_CONCURRENCY=1 for one process",
      ]);
    });
  });
});
