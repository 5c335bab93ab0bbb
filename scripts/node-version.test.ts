import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { ENGINES, isSupportedNode } from "./node-version.mjs";

test("package.json's engines name the versions npm start accepts", () => {
  const packageJson = JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")) as {
    engines: { node: string };
  };
  expect(packageJson.engines.node).toBe(ENGINES);
});

test.each([
  ["20.20.2", false],
  ["22.13.1", false],
  ["22.14.0", true],
  ["23.11.0", false],
  ["24.0.0", true],
  ["24.22.3", true],
  ["25.9.0", false],
  ["26.12.1", true],
  ["27.0.0", false],
])("Node %s is supported: %s", (version, supported) => {
  expect(isSupportedNode(version)).toBe(supported);
});
