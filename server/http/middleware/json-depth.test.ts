import { describe, expect, test } from "vitest";
import { isNestedDeeperThan } from "./json-depth";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("isNestedDeeperThan", () => {
  test("counts objects and arrays opened inside each other", () => {
    expect(isNestedDeeperThan(bytes('{"a":{"b":[1,[2]]}}'), 4)).toBe(false);
    expect(isNestedDeeperThan(bytes('{"a":{"b":[1,[2]]}}'), 3)).toBe(true);
    expect(isNestedDeeperThan(bytes("[".repeat(10_000) + "]".repeat(10_000)), 32)).toBe(true);
  });

  test("siblings do not add up: depth is how far in, not how many", () => {
    expect(isNestedDeeperThan(bytes(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1] })))), 3)).toBe(false);
  });

  test("brackets inside strings, escaped quotes included, are text, not nesting", () => {
    expect(isNestedDeeperThan(bytes(JSON.stringify({ note: "[[[[{{{{", quote: 'say \\"[[[[' })), 1)).toBe(false);
    expect(isNestedDeeperThan(bytes(JSON.stringify({ metadata: JSON.stringify({ a: { b: { c: {} } } }) })), 1)).toBe(false);
  });

  test("multi-byte characters do not confuse the scan", () => {
    expect(isNestedDeeperThan(bytes('{"name":"Zoë 🚀 [","x":{"y":1}}'), 2)).toBe(false);
    expect(isNestedDeeperThan(bytes('{"name":"Zoë 🚀 [","x":{"y":{}}}'), 2)).toBe(true);
  });
});
