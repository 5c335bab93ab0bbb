import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { MIGRATE_COMMAND, parseDockerfile, runtimeStage } from "./production-path";

// The image is not built in CI; `npm run test:production` runs its runtime stage instead, read from the Dockerfile.
// These tests hold the Dockerfile to what that check can reproduce and to the commands a developer and CI run, so
// editing one side alone (the image's CMD, the start script, the install flags, the compose migration) fails here.
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const dockerfile = read("Dockerfile");
const packageJson = JSON.parse(read("package.json")) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe("the Dockerfile runs the tested production path", () => {
  const stage = runtimeStage(dockerfile);

  test("the build stage installs and builds as CI does", () => {
    expect(stage.build.runs).toEqual(["npm ci --no-audit --no-fund", "npm run build"]);
    expect(read(".ci/run")).toMatch(/^\s*npm ci --no-audit --no-fund(?: && break)?$/m);
    expect(packageJson.scripts.build).toBe("node scripts/build.mjs");
  });

  test("the runtime stage installs the production dependencies only, with NODE_ENV=production, as an unprivileged user", () => {
    expect(stage.runs).toEqual(["npm ci --omit=dev --omit=optional --no-audit --no-fund"]);
    expect(stage.env.NODE_ENV).toBe("production");
    expect(stage.user).toBe("node");
    for (const tool of ["vite", "esbuild", "tsx", "typescript"])
      expect(packageJson.devDependencies).toHaveProperty(tool);
  });

  test("its CMD is `npm start`'s command, so a developer's start and the image's are one", () => {
    expect(stage.cmd.join(" ")).toBe(packageJson.scripts.start);
  });

  test("it copies the build and what runs it, and nothing of the sources", () => {
    expect(stage.copies).toEqual([
      { sources: ["package.json", "package-lock.json"], destination: "." },
      {
        sources: ["scripts/start.mjs", "scripts/builds.mjs", "scripts/node-version.mjs", "scripts/cli.mjs"],
        destination: "scripts/",
      },
      { sources: ["dist"], destination: "dist" },
    ]);
    // What those scripts import at run time must be copied too.
    for (const script of ["scripts/start.mjs", "scripts/cli.mjs", "scripts/builds.mjs"]) {
      for (const [, imported = ""] of read(script).matchAll(/from "\.\/([^"]+)"/g))
        expect(stage.copies[1]?.sources).toContain(`scripts/${imported}`);
    }
    // The operator commands run the compiled entries through scripts/cli.mjs, which is copied.
    expect(packageJson.scripts["db:migrate"]).toBe("node scripts/cli.mjs db/migrate-cli");
    expect(packageJson.scripts.admin).toBe("node scripts/cli.mjs admin-cli");
    expect(
      existsSync(path.join(root, "server/db/migrate-cli.ts")) && existsSync(path.join(root, "server/admin-cli.ts")),
    ).toBe(true);
  });

  test("its HEALTHCHECK runs node against /readyz on the server's port", () => {
    expect(stage.healthcheck.slice(0, 2)).toEqual(["node", "-e"]);
    expect(stage.healthcheck[2]).toContain("http://127.0.0.1:${process.env.PORT}/readyz");
  });

  test("compose.yaml runs the image's CMD and migrates with the command the check runs", () => {
    const compose = read("compose.yaml");
    expect([...compose.matchAll(/^\s+command: (.+)$/gm)].map((match) => match[1])).toEqual([
      '["redis-server", "--save", "", "--appendonly", "no"]',
      JSON.stringify(MIGRATE_COMMAND).replace(/","/g, '", "'),
    ]);
    expect(compose).not.toMatch(/entrypoint:/);
    expect(compose).toMatch(/^ {2}build: \.$/m);
  });
});

describe("runtimeStage", () => {
  const base = ["FROM node:24 AS build", "WORKDIR /app", "RUN npm run build", "FROM node:24", "WORKDIR /app"];

  test("joins continued lines, drops comments and reads flags, JSON and shell forms", () => {
    const stage = runtimeStage(
      [
        ...base,
        "# a comment",
        "COPY --from=build /app/a \\",
        "  /app/b ./x/",
        "RUN --mount=type=cache,target=/root/.npm npm ci \\",
        "  --omit=dev",
        'CMD ["node", "a.js"]',
      ].join("\n"),
    );
    expect(stage.copies).toEqual([{ sources: ["a", "b"], destination: "x/" }]);
    expect(stage.runs).toEqual(["npm ci --omit=dev"]);
    expect(stage.cmd).toEqual(["node", "a.js"]);
    expect(parseDockerfile(base.join("\n")).map((stage) => stage.name)).toEqual(["build", ""]);
  });

  test("refuses what the check could not reproduce", () => {
    expect(() => runtimeStage([...base, "ADD https://example.test/x /x"].join("\n"))).toThrow(
      "the runtime stage's ADD is not reproduced",
    );
    expect(() => runtimeStage([...base, "COPY . ."].join("\n"))).toThrow(
      "the runtime stage copies only from the build stage: COPY . .",
    );
    expect(() => runtimeStage([...base, "COPY --from=build /etc/passwd ./"].join("\n"))).toThrow(
      "Dockerfile: /etc/passwd is outside /app",
    );
    expect(() => runtimeStage([...base, "CMD node a.js"].join("\n"))).toThrow("CMD must be in JSON form");
  });
});
