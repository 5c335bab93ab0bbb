// `npm run db:migrate`, `npm run admin -- …` and every other operator command: `node scripts/cli.mjs NAME ARGS…` runs
// the compiled entry dist/server/NAME.js (built from server/NAME.ts, a `*-cli.ts` file) with ARGS, on plain node.
// Like `npm start`, it builds a stale server first outside production and refuses to run one in production.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt } from "./builds.mjs";

const root = path.resolve(import.meta.dirname, "..");
const name = process.argv[2] ?? "";
const exists =
  existsSync(path.join(root, "server", `${name}.ts`)) || existsSync(path.join(root, "dist/server", `${name}.js`));
if (!/^[a-z0-9/-]+-cli$/.test(name) || !exists) {
  process.stderr.write(
    `Usage: node scripts/cli.mjs NAME [ARGS…], NAME a command-line entry such as db/migrate-cli (server/NAME.ts); got "${name}"\n`,
  );
  process.exit(2);
}
await ensureBuilt(root, ["server"]);
// The entry reads its own arguments from process.argv.slice(2), as when it ran from source.
process.argv.splice(2, 1);
await import(pathToFileURL(path.join(root, "dist/server", `${name}.js`)).href);
