import { loadConfig } from "../config";
import { openDatabase } from "./database";
import { migrateToLatest } from "./migrate";

/** `npm run db:migrate`: applies pending migrations to the database DATABASE_URL names. */
const config = loadConfig();
const database = openDatabase(config.database);
try {
  const applied = await migrateToLatest(database.db, { authSecret: config.authSecret });
  process.stdout.write(applied.length ? `Applied: ${applied.join(", ")}\n` : "Already up to date.\n");
} finally {
  await database.close();
}
