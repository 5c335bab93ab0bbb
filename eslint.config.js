import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

// Boundaries (docs/ARCHITECTURE.md): web/ and server/ never import each other, common/ imports neither,
// and a server module reaches another only through its index.ts.
const noImport = (patterns) => ["error", { patterns: patterns.map((group) => ({ group: [group.pattern], message: group.message })) }];

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
    files: ["web/**"],
    rules: {
      "no-restricted-imports": noImport([
        { pattern: "**/server/**", message: "web/ must not import server code" },
        { pattern: "**/billing-sandbox/**", message: "web/ must not import the sandbox" },
      ]),
    },
  },
  {
    files: ["server/**"],
    rules: {
      "no-restricted-imports": noImport([
        { pattern: "**/web/**", message: "server/ must not import web code" },
        { pattern: "**/modules/*/*", message: "reach another module through its index.ts" },
      ]),
    },
  },
  {
    files: ["server/modules/**"],
    rules: {
      "no-restricted-imports": noImport([
        { pattern: "**/web/**", message: "server/ must not import web code" },
        { pattern: "../[a-z]*/*", message: "reach another module through its index.ts" },
      ]),
    },
  },
  {
    files: ["common/**"],
    rules: {
      "no-restricted-imports": noImport([
        { pattern: "**/server/**", message: "common/ imports neither side" },
        { pattern: "**/web/**", message: "common/ imports neither side" },
      ]),
    },
  },
  {
    files: ["scripts/**", "e2e/**", "bench/**"],
    rules: { "no-console": "off" },
  },
);
