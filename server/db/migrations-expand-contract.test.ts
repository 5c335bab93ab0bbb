import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

/**
 * Expand/contract (docs/deployment.md, "Upgrading"; ADR 0030): during a rolling upgrade the previous release serves
 * on the schema the new one migrated, so a migration may drop or rename a table or a column only in a release later
 * than the one whose code stopped using it. This reads every migration's `up` (its `down` only undoes it, and runs
 * when an operator migrates down, never during an upgrade) for the drops and renames it makes, through Kysely's
 * schema builder or in SQL, and requires each to be listed below with its reason.
 */

type Operation = "drop table" | "rename table" | "drop column" | "rename column";
/** A drop or rename an `up` makes: `name` is the table, or `table.column`; the old name for a rename. */
type Finding = { migration: string; operation: Operation; name: string };

type Accepted = Finding &
  (
    | {
        /**
         * The release (package.json's `version`) whose code stopped reading and writing the name: older than the
         * version in package.json, the release being built, which drops it. The name is gone from schema.ts.
         */
        stoppedUsingIn: string;
      }
    | {
        /** Why dropping a table the same migration builds again under the same name breaks no running release. */
        rebuiltInPlace: string;
      }
    | {
        /** Why renaming a table the same migration created (a rebuild's temporary table) is safe. */
        createdInTheSameMigration: string;
      }
  );

/** Every drop and rename of a checked-in migration's `up`, and why it is safe. */
const ACCEPTED: Accepted[] = [
  {
    migration: "0010-user-search-facets",
    operation: "drop table",
    name: "user_search",
    rebuiltInPlace:
      "Before the expand/contract rule (ADR 0030): the user search index of 0008 rebuilt with a new structure in one " +
      "transaction. An instance of the release before, still serving during a rolling upgrade, would have met the " +
      "new table. Kept as history; a new migration builds a new table beside the old one instead.",
  },
  {
    migration: "0010-user-search-facets",
    operation: "drop table",
    name: "user_search_key",
    rebuiltInPlace: "SQLite only, with user_search above: SQLite is one machine's file, restarted whole.",
  },
  {
    migration: "0025-api-key-actors",
    operation: "drop table",
    name: "invitation",
    rebuiltInPlace:
      "SQLite only (PostgreSQL drops the NOT NULL in place): SQLite cannot drop a constraint, so the table is " +
      "rebuilt with the same columns under the same name in the migration's transaction; SQLite is one machine's " +
      "file, whose processes restart together, so no previous release serves beside the new one.",
  },
  {
    migration: "0025-api-key-actors",
    operation: "rename table",
    name: "invitation_rebuilt",
    createdInTheSameMigration: "The rebuild's temporary table, renamed to invitation; no release ever used it.",
  },
];

const here = path.dirname(fileURLToPath(import.meta.url));

/** The code of a migration's file that its `up` can run: comments and the `down` function left out. */
export function upCode(source: string): string {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
  return code.replace(/export async function down\([\s\S]*?\n\}\n?/, "");
}

const key = (finding: Finding) => `${finding.migration}: ${finding.operation} ${finding.name}`;

const IDENTIFIER = String.raw`"?(\w+)"?`;
const NAME = String.raw`"(\w+)"`;

/** Each drop or rename in `code`, and the statements that look like one but name no table or column literally. */
export function findDropsAndRenames(migration: string, code: string): { findings: Finding[]; unreadable: string[] } {
  const findings: Finding[] = [];
  let recognised = 0;
  const add = (operation: Operation, name: string) => {
    findings.push({ migration, operation, name });
    recognised += 1;
  };
  // Kysely's schema builder: dropTable("t"), and the calls of an alterTable("t") chain.
  for (const [, table] of code.matchAll(new RegExp(String.raw`\.dropTable\(\s*${NAME}\s*\)`, "g")))
    add("drop table", table!);
  for (const [chain, table] of code.matchAll(new RegExp(String.raw`\.alterTable\(\s*${NAME}\s*\)[^;]*`, "g"))) {
    for (const [, column] of chain.matchAll(new RegExp(String.raw`\.dropColumn\(\s*${NAME}\s*\)`, "g")))
      add("drop column", `${table}.${column}`);
    for (const [, column] of chain.matchAll(new RegExp(String.raw`\.renameColumn\(\s*${NAME}\s*,`, "g")))
      add("rename column", `${table}.${column}`);
    if (/\.renameTo\(/.test(chain)) add("rename table", table!);
  }
  // SQL.
  const sqlPatterns: Array<[Operation, RegExp]> = [
    ["drop table", new RegExp(String.raw`\bdrop\s+table\s+(?:if\s+exists\s+)?${IDENTIFIER}`, "gi")],
    ["rename table", new RegExp(String.raw`\balter\s+table\s+(?:if\s+exists\s+)?${IDENTIFIER}\s+rename\s+to\b`, "gi")],
  ];
  for (const [operation, pattern] of sqlPatterns)
    for (const [, table] of code.matchAll(pattern)) add(operation, table!);
  const columnPattern = new RegExp(
    String.raw`\balter\s+table\s+(?:if\s+exists\s+)?${IDENTIFIER}\s+` +
      String.raw`(drop|rename)\s+column\s+(?:if\s+exists\s+)?${IDENTIFIER}`,
    "gi",
  );
  for (const [, table, verb, column] of code.matchAll(columnPattern))
    add(verb!.toLowerCase() === "drop" ? "drop column" : "rename column", `${table}.${column}`);
  // Anything else that drops or renames: a name in a variable, or SQL this does not read. Counted, to be refused.
  const keywords =
    /\.(dropTable|dropColumn|renameColumn|renameTo)\(|\bdrop\s+(table|column)\b|\brename\s+(to|column)\b/gi;
  const hits = [...code.matchAll(keywords)].map((match) => match[0]);
  // A SQL column statement says "drop column" once and is one finding; a Kysely renameTo is one finding.
  // One finding per name and operation: a migration may drop a table on one dialect's path and on the other's.
  const unique = [...new Map(findings.map((finding) => [key(finding), finding])).values()];
  return { findings: unique, unreadable: hits.length > recognised ? hits : [] };
}

/** Whether the migration's `up` builds a table named `table`: createTable, CREATE TABLE or a rename to it. */
function creates(code: string, table: string): boolean {
  return [
    new RegExp(String.raw`\.createTable\(\s*"${table}"\s*\)`),
    new RegExp(String.raw`\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?"?${table}"?\b`, "i"),
    new RegExp(String.raw`\brename\s+to\s+"?${table}"?\b`, "i"),
    new RegExp(String.raw`\.renameTo\(\s*"${table}"\s*\)`),
  ].some((pattern) => pattern.test(code));
}

/** The tables server/db/schema.ts types, each with its columns. */
function schemaTables(): Map<string, Set<string>> {
  const schema = readFileSync(path.join(here, "schema.ts"), "utf8");
  const types = new Map<string, Set<string>>();
  for (const [, name, body] of schema.matchAll(/export type (\w+) = \{\n([\s\S]*?)\n\};/g))
    types.set(name!, new Set([...body!.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1]!)));
  const database = /export type Database = \{\n([\s\S]*?)\n\};/.exec(schema)?.[1] ?? "";
  const tables = new Map<string, Set<string>>();
  for (const [, table, type] of database.matchAll(/^ {2}(\w+): (\w+);/gm)) tables.set(table!, types.get(type!)!);
  return tables;
}

/** Whether server/db/schema.ts still types the table, or the column (`table.column`). */
function isInSchema(tables: Map<string, Set<string>>, name: string): boolean {
  const [table, column] = name.split(".");
  if (!tables.has(table!)) return false;
  return column === undefined || tables.get(table!)!.has(column);
}

function compareVersions(a: string, b: string): number {
  const [left, right] = [a, b].map((version) => version.split(".").map(Number));
  for (let index = 0; index < 3; index += 1) {
    const difference = (left![index] ?? 0) - (right![index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

const migrationsDir = path.join(here, "migrations");
const migrationFiles = readdirSync(migrationsDir).filter((file) => /^\d{4}-.*\.ts$/.test(file));
const codeOf = (migration: string) => upCode(readFileSync(path.join(migrationsDir, `${migration}.ts`), "utf8"));

describe("migrations drop or rename nothing the same release still uses", () => {
  const scans = migrationFiles.map((file) => findDropsAndRenames(file.replace(/\.ts$/, ""), codeOf(file.slice(0, -3))));
  const findings = scans.flatMap((scan) => scan.findings);

  test("every drop and rename names its table and column literally", () => {
    expect(scans.flatMap((scan) => scan.unreadable)).toEqual([]);
  });

  test("every drop and rename is accepted below with its reason, and every acceptance still matches one", () => {
    expect(findings.map(key).sort()).toEqual(ACCEPTED.map(key).sort());
  });

  test("a name dropped or renamed in a later release than the one that stopped using it is gone from schema.ts", () => {
    const tables = schemaTables();
    const { version } = JSON.parse(readFileSync(path.join(here, "../../package.json"), "utf8")) as { version: string };
    for (const accepted of ACCEPTED) {
      if (!("stoppedUsingIn" in accepted)) continue;
      expect(isInSchema(tables, accepted.name), `${key(accepted)}: still in server/db/schema.ts`).toBe(false);
      expect(compareVersions(accepted.stoppedUsingIn, version), `${key(accepted)}: not before ${version}`).toBeLessThan(
        0,
      );
    }
  });

  test("a table rebuilt in place or renamed from a temporary one is built by the same migration", () => {
    for (const accepted of ACCEPTED) {
      if ("stoppedUsingIn" in accepted) continue;
      expect(creates(codeOf(accepted.migration), accepted.name), key(accepted)).toBe(true);
    }
  });
});

describe("the scan", () => {
  // A migration's file, as the checked-in ones are laid out: each function closes at the start of a line.
  const migration = [
    `import { sql, type Kysely } from "kysely";`,
    `/** Drops nothing in this comment: drop table user. */`,
    `export async function up(db: Kysely<unknown>): Promise<void> {`,
    `  await db.schema.alterTable("user").dropColumn("nickname").execute();`,
    `  await db.schema`,
    `    .alterTable("session")`,
    `    .renameColumn("ip", "ipAddress")`,
    `    .execute();`,
    `  await db.schema.alterTable("old_name").renameTo("new_name").execute();`,
    `  await db.schema.dropTable("legacy").execute();`,
    `  await sql\`alter table "member" drop column if exists "title"\`.execute(db);`,
    `  await sql\`ALTER TABLE team RENAME COLUMN label TO name\`.execute(db);`,
    `  await sql\`alter table staging rename to audit\`.execute(db);`,
    `  await sql\`drop table if exists "scratch"\`.execute(db); // and drop column x in a comment`,
    `}`,
    ``,
    `export async function down(db: Kysely<unknown>): Promise<void> {`,
    `  if (db) {`,
    `    await db.schema.dropTable("audit").execute();`,
    `  }`,
    `  await db.schema.alterTable("user").addColumn("nickname", "text").execute();`,
    `  await db.schema.dropTable("new_name").execute();`,
    `}`,
    ``,
  ].join("\n");

  test("finds the drops and renames of Kysely's schema builder and of SQL in up, not in comments or down", () => {
    const { findings, unreadable } = findDropsAndRenames("0099-sample", upCode(migration));
    expect(unreadable).toEqual([]);
    expect(findings.map(key).sort()).toEqual(
      [
        "drop column user.nickname",
        "rename column session.ip",
        "rename table old_name",
        "drop table legacy",
        "drop column member.title",
        "rename column team.label",
        "rename table staging",
        "drop table scratch",
      ]
        .map((text) => `0099-sample: ${text}`)
        .sort(),
    );
  });

  test("refuses a drop whose name is in a variable", () => {
    const code = upCode(
      [
        "export async function up(db) {",
        "  for (const table of tables) await db.schema.dropTable(table).execute();",
        "}",
      ].join("\n"),
    );
    expect(findDropsAndRenames("0099-sample", code)).toEqual({ findings: [], unreadable: [".dropTable("] });
  });
});
