// `npm run dev`: the API with reload on change, and Vite's dev server with hot reload in front of it.
import { spawn } from "node:child_process";
import path from "node:path";
import { requireSupportedNode } from "./node-version.mjs";

requireSupportedNode();

const root = path.resolve(import.meta.dirname, "..");
const children = [
  spawn(process.execPath, ["--import", "tsx", "--watch", "server/main.ts"], {
    cwd: root,
    stdio: "inherit",
    env: {
      ...process.env,
      PORT: process.env.API_PORT ?? "3001",
      BASE_URL: process.env.BASE_URL ?? "http://localhost:3000",
    },
  }),
  spawn(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js")], { cwd: root, stdio: "inherit" }),
];
const stop = () => children.forEach((child) => child.kill("SIGTERM"));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
children.forEach((child) =>
  child.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  }),
);
