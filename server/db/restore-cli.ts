import { ConfigError, loadConfig } from "../config";
import { describeDatabase, restoreDatabase } from "./backup";
import { BackupError } from "./backup-error";

/**
 * `npm run db:restore -- FILE --yes`: replaces the database DATABASE_URL names with a backup made by
 * `npm run db:backup` (server/db/backup.ts). Every server using the database must be stopped first; they apply
 * the migrations the backup lacks when they start again. Exits 0 when restored, 1 with a one-line reason (nothing
 * changed), 2 on bad usage or without --yes.
 */
const USAGE = "Usage: npm run db:restore -- FILE --yes";
const args = process.argv.slice(2);
const files = args.filter((arg) => !arg.startsWith("-"));
const flags = args.filter((arg) => arg.startsWith("-"));
if (files.length !== 1 || flags.some((flag) => flag !== "--yes")) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const [file] = files as [string];

try {
  const config = loadConfig();
  if (!flags.includes("--yes")) {
    process.stderr.write(
      `Restoring replaces all data in ${describeDatabase(config.database)} with the backup's. Stop every server using it, then run again with --yes: npm run db:restore -- ${file} --yes\n`,
    );
    process.exit(2);
  }
  const restored = await restoreDatabase(config.database, file);
  const pending = restored.pending.length
    ? ` The backup lacks migrations ${restored.pending.join(", ")}: the app applies them when it starts (or run npm run db:migrate).`
    : "";
  process.stdout.write(`Restored ${restored.target} from ${restored.file}.${pending} Start the servers again.\n`);
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
