import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENVIRONMENT_VARIABLES } from "../server/config";

// The variables the server reads are documented in two places a reader finds first: .env.example (one commented line
// each) and docs/configuration.md (one table row each). A variable added to server/config.ts without them fails here.

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

describe("the configuration's documentation", () => {
  it("lists every server variable in .env.example, once, commented out, and nothing else", () => {
    const listed = [...read(".env.example").matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect([...listed].sort()).toEqual([...ENVIRONMENT_VARIABLES].sort());
    expect(read(".env.example")).not.toMatch(/^[A-Z][A-Z0-9_]*=/m);
  });

  it("describes every server variable in docs/configuration.md's table of the server", () => {
    const doc = read("docs/configuration.md");
    const server = doc.slice(doc.indexOf("## The server"), doc.indexOf("\n## ", doc.indexOf("## The server") + 1));
    const firstCells = [...server.matchAll(/^\| ([^|]+)\|/gm)].map((row) => row[1]!);
    const namesIn = (cell: string) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]);
    const described = new Set(firstCells.flatMap(namesIn));
    expect(ENVIRONMENT_VARIABLES.filter((name) => !described.has(name))).toEqual([]);
  });

  it("is linked from the README", () => {
    for (const doc of ["docs/configuration.md", ".env.example"]) expect(read("README.md")).toContain(`](${doc})`);
  });
});
