import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The web app lives in web/ and builds to dist/web, which the server serves. In `npm run dev`
// Vite serves on :3000 and forwards the API to the server on :3001.
export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss()],
  build: { outDir: "../dist/web", emptyOutDir: true, sourcemap: true },
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      "/api": "http://127.0.0.1:3001",
      "/healthz": "http://127.0.0.1:3001",
      "/sandbox": "http://127.0.0.1:3001",
      // The development identity provider is served by the API too.
      "/dev/oidc": "http://127.0.0.1:3001",
    },
  },
});
