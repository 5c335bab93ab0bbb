import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

// Zone test for the import boundaries in eslint.config.js: every zone is fed at least one import the architecture
// forbids (which must be reported by boundaries/dependencies) and one it allows (which must not be), so a change to
// the configuration cannot quietly open a hole, nor make the rule report everything. The importing files are
// virtual (linted from a string at a path inside the zone); the imported files are real, since an import that does
// not resolve is not the same test.

const root = path.resolve(import.meta.dirname, "..");
const RULE = "boundaries/dependencies";

// Real files the imports point at, chosen because they are unlikely to move (checked below).
const TARGETS = {
  serverConfig: "server/config.ts",
  serverApiTypes: "server/api-types.ts",
  serverApp: "server/app.ts",
  authSpecErrors: "server/auth/spec-errors.ts",
  testFactories: "server/test/factories.ts",
  dbSchema: "server/db/schema.ts",
  mailIndex: "server/modules/mail/index.ts",
  mailPrivate: "server/modules/mail/mail.repository.ts",
  webCn: "web/lib/cn.ts",
  errorCodes: "common/error-codes.ts",
  sandboxIndex: "billing-sandbox/index.ts",
  e2eFirstLoad: "e2e/first-load.ts",
  benchUsers: "bench/users.ts",
} as const;

/** Some file of a web feature, found at run time so the test does not depend on how features arrange their files. */
function aFileOfFeature(except?: string): { feature: string; file: string } {
  const featuresDir = path.join(root, "web/features");
  for (const feature of readdirSync(featuresDir).sort()) {
    if (feature === except) continue;
    const file = findSourceFile(path.join(featuresDir, feature));
    if (file) return { feature, file: path.relative(root, file) };
  }
  throw new Error("no web feature with a source file");
}

function aFileIn(dir: string): string {
  const file = findSourceFile(path.join(root, dir));
  if (!file) throw new Error(`no source file in ${dir}`);
  return path.relative(root, file);
}

function findSourceFile(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.")) return full;
    if (entry.isDirectory()) {
      const found = findSourceFile(full);
      if (found) return found;
    }
  }
  return undefined;
}

/** The specifier a file at `from` (relative to the root) uses to import `target` (relative to the root), without extension. */
function specifier(from: string, target: string): string {
  const relative = path.relative(path.dirname(path.join(root, from)), path.join(root, target)).replace(/\.tsx?$/, "");
  const posix = relative.split(path.sep).join("/");
  return posix.startsWith(".") ? posix : `./${posix}`;
}

type Case = { zone: string; from: string; code: (target: string) => string; target: string };

const staticImport = (target: string) => `import * as probe from "${target}";\nexport { probe };\n`;
const typeImport = (target: string) => `import type * as probe from "${target}";\nexport type { probe };\n`;
const dynamicImport = (target: string) => `export const load = () => import("${target}");\n`;
const typeQuery = (target: string) => `export type Probe = typeof import("${target}");\n`;
const reExport = (target: string) => `export * from "${target}";\n`;

const featureA = "zone-probe-a";

function forbidden(): Case[] {
  const otherFeature = aFileOfFeature(featureA);
  return [
    // web ↛ server (values, and types from anywhere but server/api-types.ts)
    {
      zone: "web feature → server",
      from: `web/features/${featureA}/api/probe.ts`,
      code: staticImport,
      target: TARGETS.serverConfig,
    },
    {
      zone: "web lib → server (type-only, not api-types)",
      from: "web/lib/probe.ts",
      code: typeImport,
      target: TARGETS.serverConfig,
    },
    {
      zone: "web app → server/api-types.ts as a value",
      from: "web/app/probe.tsx",
      code: staticImport,
      target: TARGETS.serverApiTypes,
    },
    {
      zone: "web → server, dynamic import()",
      from: `web/features/${featureA}/routes/probe.tsx`,
      code: dynamicImport,
      target: TARGETS.serverConfig,
    },
    { zone: "web → server, typeof import()", from: "web/lib/probe.ts", code: typeQuery, target: TARGETS.dbSchema },
    { zone: "web → billing-sandbox", from: "web/app/probe.tsx", code: staticImport, target: TARGETS.sandboxIndex },
    // a web feature ↛ another feature; web/lib ↛ features
    {
      zone: "web feature → another feature",
      from: `web/features/${featureA}/components/probe.tsx`,
      code: staticImport,
      target: otherFeature.file,
    },
    {
      zone: "web feature → another feature, dynamic",
      from: `web/features/${featureA}/routes/probe.tsx`,
      code: dynamicImport,
      target: otherFeature.file,
    },
    { zone: "web lib → web feature", from: "web/lib/probe.ts", code: staticImport, target: otherFeature.file },
    {
      zone: "web components → web feature",
      from: "web/components/ui/probe.tsx",
      code: staticImport,
      target: otherFeature.file,
    },
    { zone: "web lib → web app", from: "web/lib/probe.ts", code: staticImport, target: aFileIn("web/app") },
    // server ↛ web
    { zone: "server app → web", from: "server/app.ts", code: staticImport, target: TARGETS.webCn },
    { zone: "server module → web", from: "server/modules/mail/probe.ts", code: typeImport, target: TARGETS.webCn },
    { zone: "server http → web, dynamic", from: "server/http/probe.ts", code: dynamicImport, target: TARGETS.webCn },
    // common ↛ anything else
    { zone: "common → server", from: "common/probe.ts", code: staticImport, target: TARGETS.serverConfig },
    { zone: "common → server, type-only", from: "common/probe.ts", code: typeImport, target: TARGETS.serverApiTypes },
    { zone: "common → web", from: "common/probe.ts", code: staticImport, target: TARGETS.webCn },
    {
      zone: "common → billing-sandbox, re-export",
      from: "common/probe.ts",
      code: reExport,
      target: TARGETS.sandboxIndex,
    },
    // server/db and server/http ↛ modules (not even through index.ts)
    { zone: "server db → module index", from: "server/db/probe.ts", code: staticImport, target: TARGETS.mailIndex },
    { zone: "server http → module index", from: "server/http/probe.ts", code: staticImport, target: TARGETS.mailIndex },
    {
      zone: "server http → module, dynamic",
      from: "server/http/middleware/probe.ts",
      code: dynamicImport,
      target: TARGETS.mailIndex,
    },
    // server/http and server/db ↛ auth (what they need of it is handed to them where the app is assembled)
    { zone: "server http → auth", from: "server/http/probe.ts", code: staticImport, target: TARGETS.authSpecErrors },
    {
      zone: "server http → auth, type-only",
      from: "server/http/middleware/probe.ts",
      code: typeImport,
      target: TARGETS.authSpecErrors,
    },
    { zone: "server db → auth", from: "server/db/probe.ts", code: staticImport, target: TARGETS.authSpecErrors },
    {
      zone: "server db → auth, dynamic",
      from: "server/db/probe.ts",
      code: dynamicImport,
      target: TARGETS.authSpecErrors,
    },
    { zone: "server http → server app", from: "server/http/probe.ts", code: staticImport, target: TARGETS.serverApp },
    // the layers below: the core imports no other layer; a file at the top of server/ in no zone imports nothing
    { zone: "server core → server db", from: "server/config.ts", code: staticImport, target: TARGETS.dbSchema },
    {
      zone: "server file in no zone → server core",
      from: "server/probe.ts",
      code: staticImport,
      target: TARGETS.serverConfig,
    },
    {
      zone: "server core → server app (files side by side)",
      from: "server/config.ts",
      code: staticImport,
      target: TARGETS.serverApp,
    },
    {
      zone: "server core → server app, dynamic",
      from: "server/logger.ts",
      code: dynamicImport,
      target: TARGETS.serverApp,
    },
    // only tests and test helpers import the test helpers (server/test)
    { zone: "server app → test helper", from: "server/app.ts", code: staticImport, target: TARGETS.testFactories },
    { zone: "server db → test helper", from: "server/db/probe.ts", code: staticImport, target: TARGETS.testFactories },
    {
      zone: "server seed → test helper",
      from: "server/seed/probe.ts",
      code: staticImport,
      target: TARGETS.testFactories,
    },
    {
      zone: "server module → test helper, type-only",
      from: "server/modules/mail/probe.ts",
      code: typeImport,
      target: TARGETS.testFactories,
    },
    {
      zone: "server http → test helper, dynamic",
      from: "server/http/probe.ts",
      code: dynamicImport,
      target: TARGETS.testFactories,
    },
    { zone: "server core → test helper", from: "server/logger.ts", code: staticImport, target: TARGETS.testFactories },
    {
      zone: "server auth → test helper",
      from: "server/auth/probe.ts",
      code: staticImport,
      target: TARGETS.testFactories,
    },
    {
      zone: "server jobs → test helper",
      from: "server/jobs/probe.ts",
      code: staticImport,
      target: TARGETS.testFactories,
    },
    // a module's private files are reached only from inside it
    {
      zone: "module → another module's private file",
      from: "server/modules/zone-probe/probe.ts",
      code: staticImport,
      target: TARGETS.mailPrivate,
    },
    {
      zone: "module → private file, type-only",
      from: "server/modules/zone-probe/probe.ts",
      code: typeImport,
      target: TARGETS.mailPrivate,
    },
    {
      zone: "server auth → module private file",
      from: "server/auth/probe.ts",
      code: staticImport,
      target: TARGETS.mailPrivate,
    },
    {
      zone: "server app → module private file, dynamic",
      from: "server/app.ts",
      code: dynamicImport,
      target: TARGETS.mailPrivate,
    },
    { zone: "bench → module private file", from: "bench/probe.ts", code: staticImport, target: TARGETS.mailPrivate },
    // the app ↛ billing-sandbox, except server/services.ts
    { zone: "server app → billing-sandbox", from: "server/app.ts", code: staticImport, target: TARGETS.sandboxIndex },
    {
      zone: "server module → billing-sandbox, dynamic",
      from: "server/modules/mail/probe.ts",
      code: dynamicImport,
      target: TARGETS.sandboxIndex,
    },
    {
      zone: "server test helpers → billing-sandbox",
      from: "server/test/probe.ts",
      code: staticImport,
      target: TARGETS.sandboxIndex,
    },
    // billing-sandbox ↛ the app
    {
      zone: "billing-sandbox → server",
      from: "billing-sandbox/probe.ts",
      code: staticImport,
      target: TARGETS.serverConfig,
    },
    { zone: "billing-sandbox → web", from: "billing-sandbox/probe.ts", code: dynamicImport, target: TARGETS.webCn },
    // e2e drives the app from outside
    { zone: "e2e → server", from: "e2e/probe.spec.ts", code: staticImport, target: TARGETS.serverConfig },
    { zone: "e2e → web", from: "e2e/probe.spec.ts", code: staticImport, target: TARGETS.webCn },
    { zone: "e2e → bench", from: "e2e/probe.spec.ts", code: staticImport, target: TARGETS.benchUsers },
    // Node tooling never imports browser code
    { zone: "scripts → web", from: "scripts/probe.ts", code: staticImport, target: TARGETS.webCn },
    { zone: "root config → web", from: "probe.config.ts", code: staticImport, target: TARGETS.webCn },
  ];
}

function allowed(): Case[] {
  const feature = aFileOfFeature(featureA);
  return [
    {
      zone: "web feature → web lib",
      from: `web/features/${featureA}/api/probe.ts`,
      code: staticImport,
      target: TARGETS.webCn,
    },
    {
      zone: "web feature → import type server/api-types.ts",
      from: `web/features/${featureA}/api/probe.ts`,
      code: typeImport,
      target: TARGETS.serverApiTypes,
    },
    {
      zone: "web lib → import type server/api-types.ts",
      from: "web/lib/probe.ts",
      code: typeImport,
      target: TARGETS.serverApiTypes,
    },
    { zone: "web lib → common", from: "web/lib/probe.ts", code: staticImport, target: TARGETS.errorCodes },
    { zone: "web app → web feature", from: "web/app/probe.tsx", code: staticImport, target: feature.file },
    { zone: "web app → web feature, dynamic", from: "web/app/probe.tsx", code: dynamicImport, target: feature.file },
    {
      zone: "web feature → web app",
      from: `web/features/${featureA}/components/probe.tsx`,
      code: staticImport,
      target: aFileIn("web/app"),
    },
    {
      zone: "web feature → itself",
      from: `web/features/${feature.feature}/probe.ts`,
      code: staticImport,
      target: feature.file,
    },
    { zone: "server app → common", from: "server/app.ts", code: staticImport, target: TARGETS.errorCodes },
    { zone: "server app → module index", from: "server/app.ts", code: staticImport, target: TARGETS.mailIndex },
    { zone: "server app → auth", from: "server/app.ts", code: staticImport, target: TARGETS.authSpecErrors },
    { zone: "server seed → server app", from: "server/seed/probe.ts", code: staticImport, target: TARGETS.serverApp },
    { zone: "server auth → module index", from: "server/auth/probe.ts", code: staticImport, target: TARGETS.mailIndex },
    {
      zone: "server module → server http",
      from: "server/modules/mail/probe.ts",
      code: staticImport,
      target: aFileIn("server/http"),
    },
    {
      zone: "test in server http → auth",
      from: "server/http/probe.int.test.ts",
      code: staticImport,
      target: TARGETS.authSpecErrors,
    },
    {
      zone: "test in server module → test helper",
      from: "server/modules/mail/probe.int.test.ts",
      code: staticImport,
      target: TARGETS.testFactories,
    },
    {
      zone: "test at the top of server → test helper",
      from: "server/probe.int.test.ts",
      code: staticImport,
      target: TARGETS.testFactories,
    },
    {
      zone: "server test helper → server app",
      from: "server/test/probe.ts",
      code: staticImport,
      target: TARGETS.serverApp,
    },
    {
      zone: "server module → another module's index",
      from: "server/modules/zone-probe/probe.ts",
      code: staticImport,
      target: TARGETS.mailIndex,
    },
    {
      zone: "server module → its own private file",
      from: "server/modules/mail/probe.ts",
      code: staticImport,
      target: TARGETS.mailPrivate,
    },
    { zone: "server db → server core", from: "server/db/probe.ts", code: staticImport, target: TARGETS.serverConfig },
    {
      zone: "server app → server core (files side by side)",
      from: "server/app.ts",
      code: staticImport,
      target: TARGETS.serverConfig,
    },
    { zone: "server http → server db", from: "server/http/probe.ts", code: staticImport, target: TARGETS.dbSchema },
    { zone: "server jobs → module index", from: "server/jobs/probe.ts", code: staticImport, target: TARGETS.mailIndex },
    {
      zone: "server/services.ts → billing-sandbox",
      from: "server/services.ts",
      code: staticImport,
      target: TARGETS.sandboxIndex,
    },
    { zone: "common → common", from: "common/probe.ts", code: staticImport, target: TARGETS.errorCodes },
    {
      zone: "billing-sandbox → common",
      from: "billing-sandbox/probe.ts",
      code: staticImport,
      target: TARGETS.errorCodes,
    },
    { zone: "e2e → common", from: "e2e/probe.spec.ts", code: staticImport, target: TARGETS.errorCodes },
    { zone: "bench → server", from: "bench/probe.ts", code: staticImport, target: TARGETS.serverConfig },
    { zone: "bench → e2e helper", from: "bench/probe.ts", code: staticImport, target: TARGETS.e2eFirstLoad },
    { zone: "root config → server", from: "probe.config.ts", code: staticImport, target: TARGETS.serverConfig },
  ];
}

let eslint: ESLint;

async function boundaryErrors(testCase: Case) {
  const code = testCase.code(specifier(testCase.from, testCase.target));
  const [result] = await eslint.lintText(code, { filePath: path.join(root, testCase.from) });
  expect(result, `${testCase.from} was not linted`).toBeDefined();
  const fatal = result!.messages.filter((message) => message.fatal);
  expect(fatal, `${testCase.from} did not parse`).toEqual([]);
  return result!.messages.filter((message) => message.ruleId === RULE && message.severity === 2);
}

// The first lint loads ESLint's configuration and plugins: 6 s on a loaded two-core machine, past the default 5 s.
describe("import boundaries (eslint.config.js)", { timeout: 30_000 }, () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, "eslint.config.js") });
  });

  it("imports real files", () => {
    for (const target of Object.values(TARGETS)) expect(existsSync(path.join(root, target)), target).toBe(true);
  });

  describe("reports a forbidden import", () => {
    for (const testCase of forbidden()) {
      it(`${testCase.zone} (${testCase.from} → ${testCase.target})`, async () => {
        const errors = await boundaryErrors(testCase);
        expect(errors.length, `${testCase.code(specifier(testCase.from, testCase.target))}`).toBeGreaterThan(0);
      });
    }
  });

  describe("accepts an allowed import", () => {
    for (const testCase of allowed()) {
      it(`${testCase.zone} (${testCase.from} → ${testCase.target})`, async () => {
        expect(await boundaryErrors(testCase)).toEqual([]);
      });
    }
  });

  it("reports a file outside every zone", async () => {
    const [result] = await eslint.lintText("export const probe = 1;\n", {
      filePath: path.join(root, "zone-probe/probe.ts"),
    });
    expect(result!.messages.map((message) => message.ruleId)).toContain("boundaries/no-unknown-files");
  });
});

// `npm run typecheck` is `tsc -b` over the projects tsconfig.json references (browser, server, common, tests, tooling):
// every source file must be in one of them, or it is never type-checked.
describe("type-check projects (tsconfig.json)", () => {
  const SOURCE = /\.(ts|tsx|mts|mjs)$|^[^/]+\.js$/;
  // Static pages of the billing sandbox and the web's pre-paint script: plain browser scripts, linted but not type-checked.
  const NOT_TYPE_CHECKED = /^(web\/public|billing-sandbox\/(checkout-page|dashboard|portal))\//;
  const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "data", "coverage", "test-results", ".git"]);

  function sourceFiles(dir = root): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory())
        return SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith(".") ? [] : sourceFiles(full);
      const relative = path.relative(root, full).split(path.sep).join("/");
      return SOURCE.test(relative) && !relative.endsWith(".d.ts") && !NOT_TYPE_CHECKED.test(relative) ? [relative] : [];
    });
  }

  function projectFiles(configPath: string): Set<string> {
    const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath), undefined, configPath);
    const files = new Set(parsed.fileNames.map((file) => path.relative(root, file).split(path.sep).join("/")));
    for (const reference of parsed.projectReferences ?? [])
      for (const file of projectFiles(ts.resolveProjectReferencePath(reference))) files.add(file);
    return files;
  }

  it("covers every source file", () => {
    const covered = projectFiles(path.join(root, "tsconfig.json"));
    expect(sourceFiles().filter((file) => !covered.has(file))).toEqual([]);
  });
});
