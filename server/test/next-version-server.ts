import { appendedMigrations } from "../db/migrate";
import { NEXT_VERSION_MIGRATION, nextVersionMigration } from "./next-version";

/**
 * "The next version" of the server, for the rolling-upgrade test: server/main.ts as it is, with one more migration
 * (server/test/next-version.ts), appended to the checked-in ones before main.ts loads.
 *
 * Only this file adds to the list, and production never runs it: no file outside server/test may import from
 * server/test (the eslint boundaries), and the build compiles server/main.ts and the command-line entries alone
 * (ADR 0014), so a production process applies the checked-in migrations and nothing else.
 */
appendedMigrations[NEXT_VERSION_MIGRATION] = nextVersionMigration;

await import("../main");
