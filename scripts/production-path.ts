// What a production deployment runs, read from the Dockerfile, so the image, the CI check that runs its commands
// (scripts/production-check.ts) and the test that ties them to package.json (scripts/production-path.test.ts) share
// one source. The image itself is not built in CI (there is no container engine there): the check copies what the
// runtime stage copies, runs its RUN lines, its CMD and its HEALTHCHECK on the CI machine, with the ENV it sets.

/** The one command compose.yaml runs besides the image's CMD: migrations, once, before the instances start. */
export const MIGRATE_COMMAND = ["npm", "run", "db:migrate"];

export type Instruction = { keyword: string; flags: Record<string, string>; args: string; json?: string[] };
export type Stage = { name: string; image: string; instructions: Instruction[] };

/** A Dockerfile's stages, each with its instructions (continuations joined, comments dropped). */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [, keyword = "", rest = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const flags: Record<string, string> = {};
    let args = rest;
    for (let flag = /^--([a-z-]+)=(\S+)\s*/.exec(args); flag; flag = /^--([a-z-]+)=(\S+)\s*/.exec(args)) {
      flags[flag[1] ?? ""] = flag[2] ?? "";
      args = args.slice(flag[0].length);
    }
    const upper = keyword.toUpperCase();
    if (upper === "FROM") {
      const [, image = "", name = ""] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args) ?? [];
      stages.push({ name, image, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${upper} before the first FROM`);
    stage.instructions.push({
      keyword: upper,
      flags,
      args: args.replace(/\s+/g, " "),
      json: args.startsWith("[") ? (JSON.parse(args) as string[]) : undefined,
    });
  }
  return stages;
}

/** Instructions of the runtime stage the check reproduces; any other one would make the check untrue to the image. */
const RUNTIME_KEYWORDS = new Set(["WORKDIR", "ENV", "COPY", "RUN", "USER", "EXPOSE", "HEALTHCHECK", "CMD"]);

export type RuntimeStage = {
  /** The build stage before it: its name and RUN commands. */
  build: { name: string; runs: string[] };
  /**
   * Sources relative to the build stage's working folder (the repository), destinations relative to the runtime's;
   * a destination ending in "/" (or ".") is a folder the sources go into, as in Docker.
   */
  copies: Array<{ sources: string[]; destination: string }>;
  runs: string[];
  env: Record<string, string>;
  user: string;
  healthcheck: string[];
  cmd: string[];
};

/** The last stage (what the image runs), in the terms the check reproduces it in; throws on what it cannot reproduce. */
export function runtimeStage(text: string): RuntimeStage {
  const stages = parseDockerfile(text);
  const runtime = stages.at(-1);
  const build = stages.at(-2);
  if (!runtime || !build || !build.name)
    throw new Error("Dockerfile: expected a named build stage, then the runtime stage");
  const buildDir = workdir(build);
  const runtimeDir = workdir(runtime);
  const stage: RuntimeStage = {
    build: { name: build.name, runs: commands(build) },
    copies: [],
    runs: commands(runtime),
    env: {},
    user: "root",
    healthcheck: [],
    cmd: [],
  };
  for (const instruction of runtime.instructions) {
    const { keyword, flags, args, json } = instruction;
    if (!RUNTIME_KEYWORDS.has(keyword))
      throw new Error(`Dockerfile: the runtime stage's ${keyword} is not reproduced by the production check`);
    if (keyword === "COPY") {
      if (flags.from !== build.name)
        throw new Error(`Dockerfile: the runtime stage copies only from the ${build.name} stage: COPY ${args}`);
      const paths = args.split(" ");
      const destination = paths.pop() ?? "";
      stage.copies.push({
        sources: paths.map((source) => relativeTo(buildDir, source)),
        destination:
          relativeTo(
            runtimeDir,
            destination.startsWith("/") ? destination : `${runtimeDir}/${destination.replace(/^\.\//, "")}`,
          ) + (destination.endsWith("/") && destination !== "./" ? "/" : ""),
      });
    } else if (keyword === "ENV") {
      for (const [, name = "", value = ""] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g))
        stage.env[name] = value.replace(/^"|"$/g, "");
    } else if (keyword === "USER") {
      stage.user = args;
    } else if (keyword === "HEALTHCHECK") {
      const command = /^CMD\s+(\[.*\])$/.exec(args);
      if (!command) throw new Error("Dockerfile: HEALTHCHECK must be CMD [ …json… ]");
      stage.healthcheck = JSON.parse(command[1] ?? "[]") as string[];
    } else if (keyword === "CMD") {
      if (!json) throw new Error("Dockerfile: CMD must be in JSON form, so signals reach the server directly");
      stage.cmd = json;
    }
  }
  return stage;
}

/** The stage's working folder (its last WORKDIR, absolute). */
function workdir(stage: Stage): string {
  const dir = stage.instructions.filter((instruction) => instruction.keyword === "WORKDIR").at(-1)?.args;
  if (!dir?.startsWith("/"))
    throw new Error(`Dockerfile: the ${stage.name || "runtime"} stage needs an absolute WORKDIR`);
  return dir.replace(/\/+$/, "");
}

/** The stage's RUN commands in shell form, BuildKit flags (cache mounts) left out. */
function commands(stage: Stage): string[] {
  return stage.instructions
    .filter((instruction) => instruction.keyword === "RUN")
    .map((instruction) => instruction.args);
}

/** `file`, an absolute path under `dir`, relative to `dir` ("." for `dir` itself). */
function relativeTo(dir: string, file: string): string {
  const clean = file.replace(/\/+$/, "");
  if (clean === dir) return ".";
  if (!clean.startsWith(`${dir}/`)) throw new Error(`Dockerfile: ${file} is outside ${dir}`);
  return clean.slice(dir.length + 1);
}
