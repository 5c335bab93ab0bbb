import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { staleBuilds } from "./builds.mjs";

// A production install has the start scripts and dist/ but no build tool: these check what `npm start` and the
// operator commands decide there, in a throwaway folder laid out like the repository or the image.
const scripts = import.meta.dirname;
let root = "";
afterEach(() => rmSync(root, { recursive: true, force: true }));

function layout(files: Record<string, number>): void {
  root = mkdtempSync(path.join(tmpdir(), "atrium-builds-"));
  for (const [file, modifiedAt] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), "");
    utimesSync(path.join(root, file), modifiedAt, modifiedAt);
  }
}

describe("staleBuilds", () => {
  test("a build is stale when missing or older than a source file, and fresh when no source is beside it (an image)", () => {
    layout({ "dist/web/index.html": 2000, "dist/server/main.js": 2000, "web/main.tsx": 1000, "server/main.ts": 3000 });
    expect(staleBuilds(root)).toEqual(["server"]);
    expect(staleBuilds(root, ["web"])).toEqual([]);
    rmSync(path.join(root, "server"), { recursive: true });
    rmSync(path.join(root, "web"), { recursive: true });
    expect(staleBuilds(root)).toEqual([]);
    rmSync(path.join(root, "dist/web"), { recursive: true });
    expect(staleBuilds(root)).toEqual(["web"]);
  });
});

describe("in production", () => {
  function run(script: "start.mjs" | "cli.mjs", args: string[] = []) {
    // The image's scripts/ folder: no build.mjs, so a build attempt would fail with a missing module instead.
    mkdirSync(path.join(root, "scripts"), { recursive: true });
    for (const file of ["start.mjs", "cli.mjs", "builds.mjs", "node-version.mjs"])
      copyFileSync(path.join(scripts, file), path.join(root, "scripts", file));
    return spawnSync(process.execPath, [path.join(root, "scripts", script), ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, NODE_ENV: "production" },
    });
  }

  test("npm start refuses a missing build and says how to make one, without trying to build", () => {
    layout({ "package.json": 1000 });
    const result = run("start.mjs");
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      "Atrium: dist/web and dist/server are missing or older than the sources. In production Atrium runs only a build made beforehand and never builds " +
        "(the build tools are devDependencies): run `npm ci && npm run build` (a build stage), then `npm ci --omit=dev --omit=optional` where it runs. See docs/deployment.md.\n",
    );
  });

  test("an operator command refuses a server build older than its sources", () => {
    layout({ "dist/server/db/migrate-cli.js": 1000, "dist/server/main.js": 1000, "server/db/migrate-cli.ts": 2000 });
    const result = run("cli.mjs", ["db/migrate-cli"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^Atrium: dist\/server is missing or older than the sources\. In production/);
  });
});
