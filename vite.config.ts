import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The files the server answers precompressed (server/app.ts, mountWebApp); source maps are never served in production. */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip -9) next to every text file of the build, so the
 * server sends compressed bytes without compressing on each request.
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "atrium:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/**
 * Fewer, larger files for the first load (120 KB of gzipped JavaScript for /sign-in, ADR 0011): gzip compresses each
 * file on its own, so a dozen small chunks cost more than one. Everything the entry imports statically is one file;
 * the forms' shared code that /sign-in needs (the form and field helpers, the auth layout and the auth calls) is
 * another, which the other auth and account pages share. 122.4 KB in 20 files became 118.8 KB in 4.
 */
/** The modules of the "auth-forms" chunk: files by path without extension, and one folder. */
const AUTH_FORM_MODULES = [
  "web/lib/form.",
  "web/lib/format.",
  "web/lib/address-messages.",
  "web/components/auth-layout.",
  "web/components/form-error-alert.",
  "web/components/social-sign-in.",
  "web/components/ui/alert.",
  "web/components/ui/text-field.",
  "web/features/auth/api/",
  "@tanstack/query-core/build/modern/mutationObserver.",
  "@tanstack/react-query/build/modern/useMutation.",
];

const FIRST_LOAD_CHUNKS = [
  { name: "app", tags: ["$initial" as const] },
  { name: "auth-forms", test: (id: string) => AUTH_FORM_MODULES.some((module) => id.includes(module)) },
];

// The web app lives in web/ and builds to dist/web, which the server serves. In `npm run dev`
// Vite serves on :3000 and forwards the API to the server on :3001.
export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: [
      // TanStack's store reads selectors through the React 17 shim of useSyncExternalStore; React 19 has the hook
      // itself, so the selector helper that uses it directly does the same with fewer bytes on every first load.
      { find: /^use-sync-external-store\/shim\/with-selector$/, replacement: "use-sync-external-store/with-selector" },
    ],
  },
  // "hidden": the maps are written (for an error tracker to upload) but no bundle points at them, and the
  // server refuses *.map in production (server/app.ts), so the sources are never published.
  // No module-preload helper (1.3 KB gzip on every first load, which must stay within 120 KB for /sign-in): a lazy
  // page's shared chunks load when it imports them, and the router's preload on hover ("intent") starts that early.
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: "hidden",
    modulePreload: false,
    rolldownOptions: { output: { codeSplitting: { groups: FIRST_LOAD_CHUNKS } } },
  },
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      "/api": "http://127.0.0.1:3001",
      "/healthz": "http://127.0.0.1:3001",
      "/sandbox": "http://127.0.0.1:3001",
      // The development identity provider is served by the API too.
      "/dev/oidc": "http://127.0.0.1:3001",
      "/dev/saml": "http://127.0.0.1:3001",
    },
  },
});
