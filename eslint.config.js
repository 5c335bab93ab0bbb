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
  { type: "server-test", pattern: "server/test" },
  // What is left of server/: app.ts, services.ts, main.ts, config.ts, logger.ts, api-types.ts and their tests.
  { type: "server-root", pattern: "server" },
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
];

const SERVER = ["server-module", "server-db", "server-http", "server-auth", "server-jobs", "server-test", "server-root"];
const WEB = ["web-app", "web-lib", "web-feature", "web-test"];

const to = (types, extra = {}) => ({ to: { element: { type: types, ...extra } } });

const policies = [
  // The browser side: web/app wires the features together; a feature reaches no other feature (what two features
  // share, such as the session, lives in web/lib or web/app); web/lib and web/components are below both and import
  // neither. From the server the web takes only `import type` from server/api-types.ts.
  { from: { element: { type: "web-app" } }, allow: to(["web-app", "web-lib", "web-feature", "common"]) },
  { from: { element: { type: "web-feature" } }, allow: to(["web-app", "web-lib", "common"]) },
  { from: { element: { type: "web-lib" } }, allow: to(["web-lib", "common"]) },
  { from: { element: { type: "web-test" } }, allow: to([...WEB, "common"]) },
  {
    from: { element: { type: WEB } },
    allow: { to: { file: { categories: "api-types" } }, dependency: { kind: "type" } },
  },
  // common/ is shared by both sides and imports only itself (and npm packages): no policy lets it out.
  // The server: its parts may use each other, except as below, and common/.
  { from: { element: { type: SERVER } }, allow: to([...SERVER, "common"]) },
  // The app reaches the billing sandbox only where it creates and mounts it.
  { from: { file: { categories: "sandbox-mount" } }, allow: to("billing-sandbox") },
  // The sandbox plays an outside provider: it imports nothing of the app but common/'s pure helpers.
  { from: { element: { type: "billing-sandbox" } }, allow: to("common") },
  // Playwright specs drive the running app from outside.
  { from: { element: { type: "e2e" } }, allow: to("common") },
  // Node tooling (scripts, bench, root config files) may start the server, never import browser code. Scripts and the
  // bench may also use the e2e helpers (Node code that drives a browser), so the bench measures the first load exactly
  // as the browser test does.
  { from: { element: { type: "tooling" } }, allow: to([...SERVER, "common", "billing-sandbox", "tooling", "e2e"]) },
  { from: { file: { categories: "root-config" } }, allow: to([...SERVER, "common", "billing-sandbox", "tooling"]) },
  // Restrictions, last so that no allowance above can lift them.
  {
    from: { element: { type: ["server-db", "server-http"] } },
    disallow: to("server-module"),
    message: "server/db and server/http are below the modules: they must not import server/modules",
  },
  {
    // A module reaches another module only through its index.ts (a module's own files are internal, not checked here).
    from: [{ element: { type: [...SERVER, "tooling"] } }, { file: { categories: "root-config" } }],
    disallow: to("server-module", { fileInternalPath: "!index.ts" }),
    message: "reach a server module only through its index.ts",
  },
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
      "boundaries/additional-dependency-nodes": [{ selector: "TSImportType > Literal", kind: "type", name: "type-import" }],
    },
    rules: {
      "boundaries/dependencies": ["error", { default: "disallow", checkUnknownLocals: true, policies }],
      "boundaries/no-unknown-files": "error",
    },
  },
  {
    files: ["scripts/**", "e2e/**", "bench/**"],
    rules: { "no-console": "off" },
  },
);
