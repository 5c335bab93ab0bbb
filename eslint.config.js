import js from "@eslint/js";
import boundaries from "eslint-plugin-boundaries";
import globals from "globals";
import tseslint from "typescript-eslint";

// Boundaries (docs/ARCHITECTURE.md), enforced by eslint-plugin-boundaries in one rule for the whole repository, so a
// per-folder override cannot silently drop a zone. scripts/boundaries.test.ts feeds every zone a forbidden import.
//
// Elements: every source file belongs to exactly one (the first descriptor that matches wins; an unclassified file is an
// error, so a new folder has to be placed in a zone before it can import anything).
const elements = [
  { type: "server-module", pattern: "server/modules/*", capture: ["module"] },
  { type: "server-db", pattern: "server/db" },
  { type: "server-http", pattern: "server/http" },
  { type: "server-auth", pattern: "server/auth" },
  { type: "server-jobs", pattern: "server/jobs" },
  { type: "server-seed", pattern: "server/seed" },
  { type: "server-test", pattern: "server/test" },
  // The files at the top of server/: each is placed in a zone by its name (the file categories below); one that is
  // named in none may import nothing.
  { type: "server-top", pattern: "server" },
  { type: "web-app", pattern: "web/app" },
  { type: "web-lib", pattern: "web/lib" },
  { type: "web-lib", pattern: "web/components" },
  { type: "web-feature", pattern: "web/features/*", capture: ["feature"] },
  { type: "web-test", pattern: "web/test" },
  // What is left of web/: main.tsx (the entry, which wires the app like web/app) and public/.
  { type: "web-app", pattern: "web" },
  { type: "common", pattern: "common" },
  { type: "billing-sandbox", pattern: "billing-sandbox" },
  { type: "e2e", pattern: "e2e" },
  { type: "tooling", pattern: "scripts" },
  { type: "tooling", pattern: "bench" },
].map((element) => ({ ...element, partialMatch: false }));

// Single files with a role of their own, classified on the file axis (element descriptors describe folders).
const files = [
  // The one server file the web may read, and only its types: the route types for Hono's typed client.
  { category: "api-types", pattern: "server/api-types.ts" },
  // Where the server creates the billing sandbox it mounts.
  { category: "sandbox-mount", pattern: "server/services.ts" },
  // Configuration files at the root of the repository (Vite, Vitest, ESLint).
  { category: "root-config", pattern: "*.{js,mjs,cjs,ts}" },
  // Tests, wherever they are: a test may import any part of the server it exercises, and the test helpers.
  { category: "test", pattern: "**/*.test.{ts,tsx}" },
  // The top of server/, file by file. The core is what every layer may use (configuration, logging, the request's
  // scope); the app is where the server is assembled and started, with the tests that start all of it.
  { category: "server-core", pattern: "server/{config,logger,request-scope,timeout}{,.test}.ts" },
  { category: "server-app", pattern: "server/{app,app-errors,services,main,cluster,admin-cli,api-types}.ts" },
  { category: "server-app", pattern: "server/*.{test,int.test,fault.test}.ts" },
];

const isServerFolder = (type) => type.startsWith("server-") && type !== "server-top";
const FOLDER_ZONES = elements.map(({ type }) => type).filter(isServerFolder);
// The server's zones: a folder each, but for the core and the app, which are files at the top of server/.
const ZONES = {
  "server-core": { element: { type: "server-top" }, file: { categories: "server-core" } },
  "server-app": { element: { type: "server-top" }, file: { categories: "server-app" } },
  ...Object.fromEntries(FOLDER_ZONES.map((type) => [type, { element: { type } }])),
};
const SERVER = Object.keys(ZONES);
const zones = (names) => names.map((name) => (name === "common" ? { element: { type: "common" } } : ZONES[name]));
/** A policy from one server zone to the zones it lists. */
const serverPolicy = (name, allowed) => ({ from: ZONES[name], allow: { to: zones(allowed) } });
/**
 * A zone's selector narrowed to its tests (`allOf: ["test"]`) or to its other files (`noneOf: ["test"]`).
 * @param {{ element: object; file?: { categories: string } }} zone
 * @param {{ allOf?: string[]; noneOf?: string[] }} query
 */
const narrowed = (zone, query) => {
  const allOf = [...(zone.file ? [zone.file.categories] : []), ...(query.allOf ?? [])];
  return { ...zone, file: { categories: { allOf, noneOf: query.noneOf ?? [] } } };
};
const tests = (zone) => narrowed(zone, { allOf: ["test"] });
const nonTest = (zone) => narrowed(zone, { noneOf: ["test"] });
/** The layers every server module stands on. */
const BELOW_MODULES = ["server-http", "server-db", "server-core", "common"];
const WEB = ["web-app", "web-lib", "web-feature", "web-test"];

const to = (types, extra = {}) => ({ to: { element: { type: types, ...extra } } });
const elementsOf = (types) => types.map((type) => ({ element: { type } }));
/** What Node tooling may import: the server, common/, the sandbox and the tooling itself. */
const NODE_TARGETS = [...zones([...SERVER, "common"]), ...elementsOf(["billing-sandbox", "tooling"])];

const policies = [
  // The browser side: web/app wires the features together; a feature reaches no other feature (what two features
  // share, such as the session, lives in web/lib or web/app); web/lib and web/components are below both and import
  // neither. From the server the web takes only `import type` from server/api-types.ts.
  { from: { element: { type: "web-app" } }, allow: to(["web-app", "web-lib", "web-feature", "common"]) },
  { from: { element: { type: "web-feature" } }, allow: to(["web-app", "web-lib", "common"]) },
  { from: { element: { type: "web-lib" } }, allow: to(["web-lib", "common"]) },
  { from: { element: { type: "web-test" } }, allow: to([...WEB, "common"]) },
  // The web's tests render pages with the shared test helpers (web/test); the app's own files never import them.
  { from: { element: { type: WEB }, file: { categories: { allOf: ["test"] } } }, allow: to(["web-test"]) },
  {
    from: { element: { type: WEB } },
    allow: { to: { file: { categories: "api-types" } }, dependency: { kind: "type" } },
  },
  // common/ is shared by both sides and imports only itself (and npm packages): no policy lets it out.
  // The server, layer by layer (docs/ARCHITECTURE.md, Boundaries), each zone listing what it may import. No zone
  // may import "the rest of the server": a file is in a named zone, or it imports nothing.
  serverPolicy("server-core", ["server-core", "common"]),
  // db/ knows no domain and no auth: Kysely, the dialects, migrations, the read cache.
  serverPolicy("server-db", ["server-db", "server-core", "common"]),
  // http/ knows neither auth nor a module: what it needs of them (the spec's error table, unique-index conflicts,
  // backlog metrics) is handed to it where the app is assembled (server/app.ts, server/app-errors.ts).
  serverPolicy("server-http", ["server-http", "server-db", "server-core", "common"]),
  // A module uses the layers below it and other modules' index.ts; auth composes the modules' plugins.
  serverPolicy("server-module", ["server-module", ...BELOW_MODULES]),
  serverPolicy("server-auth", ["server-auth", "server-module", ...BELOW_MODULES]),
  serverPolicy("server-jobs", ["server-jobs", "server-module", "server-db", "server-core", "common"]),
  // The assembly uses every layer; the demo seed uses the assembled app; neither uses the test helpers.
  serverPolicy("server-app", ["server-app", "server-auth", "server-module", "server-jobs", ...BELOW_MODULES]),
  serverPolicy("server-seed", ["server-seed", "server-app", "server-auth", "server-module", ...BELOW_MODULES]),
  // Test helpers, and tests wherever they are, may use every zone of the server.
  serverPolicy("server-test", [...SERVER, "common"]),
  { from: zones(SERVER).map(tests), allow: { to: zones([...SERVER, "common"]) } },
  // The app reaches the billing sandbox only where it creates and mounts it.
  { from: { file: { categories: "sandbox-mount" } }, allow: to("billing-sandbox") },
  // The sandbox plays an outside provider: it imports nothing of the app but common/'s pure helpers.
  { from: { element: { type: "billing-sandbox" } }, allow: to("common") },
  // Playwright specs drive the running app from outside.
  { from: { element: { type: "e2e" } }, allow: to("common") },
  // Node tooling (scripts, bench, root config files) may start the server, never import browser code. Scripts and the
  // bench may also use the e2e helpers (Node code that drives a browser), so the bench measures the first load exactly
  // as the browser test does.
  { from: { element: { type: "tooling" } }, allow: { to: [...NODE_TARGETS, ...elementsOf(["e2e"])] } },
  { from: { file: { categories: "root-config" } }, allow: { to: NODE_TARGETS } },
  // Restrictions, last so that no allowance above can lift them.
  {
    from: { element: { type: ["server-db", "server-http"] } },
    disallow: to("server-module"),
    message: "server/db and server/http are below the modules: they must not import server/modules",
  },
  {
    from: zones(["server-db", "server-http"]).map(nonTest),
    disallow: { to: zones(["server-auth", "server-app", "server-seed"]) },
    message: "server/db and server/http are below auth and the app: what they need is handed to them (server/app.ts)",
  },
  {
    from: zones(SERVER.filter((name) => name !== "server-test")).map(nonTest),
    disallow: { to: zones(["server-test"]) },
    message: "server/test holds test helpers: only tests and other helpers import them",
  },
  {
    // A module reaches another module only through its index.ts (a module's own files are internal, not checked here).
    from: [...zones(SERVER), { element: { type: "tooling" } }, { file: { categories: "root-config" } }],
    disallow: to("server-module", { fileInternalPath: "!index.ts" }),
    message: "reach a server module only through its index.ts",
  },
  // Imports between the files of one element (a module's, a feature's) are its own business, but for the top of
  // server/: its files are one folder, and the zones they are in (core, app) are checked file by file.
  { from: { element: { type: "!server-top" } }, allow: { dependency: { relationship: { to: "internal" } } } },
];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "data/**", "test-results/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["**/*.{js,mjs,cjs,ts,tsx}"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { typescript: { alwaysTryTypes: true, project: "tsconfig.json" } },
      "boundaries/root-path": import.meta.dirname,
      "boundaries/elements": elements,
      "boundaries/files": files,
      // Static imports, `export ... from`, `require()`, dynamic `import("...")` and type-level `import("...")` all count.
      "boundaries/dependency-nodes": ["import", "export", "require", "dynamic-import"],
      "boundaries/additional-dependency-nodes": [
        { selector: "TSImportType > Literal", kind: "type", name: "type-import" },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        // checkInternals: imports inside one element are checked too (the last policy lets them through but for the
        // top of server/, whose files are in different zones).
        { default: "disallow", checkUnknownLocals: true, checkInternals: true, policies },
      ],
      "boundaries/no-unknown-files": "error",
    },
  },
  {
    files: ["scripts/**", "e2e/**", "bench/**"],
    rules: { "no-console": "off" },
  },
  {
    // The server loads its packages module by module from node_modules (scripts/build.mjs): date-fns' index loads
    // all its 300 modules, and importing from it raised the server's RSS at start by about 65 MB.
    files: ["server/**", "billing-sandbox/**", "common/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "date-fns", message: "Import each function from its own path: date-fns/addDays." }] },
      ],
    },
  },
);
