import { describe, expect, test } from "vitest";
import { findBodyProblem } from "./hostile-input";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("findBodyProblem", () => {
  test("counts objects and arrays opened inside each other", () => {
    expect(findBodyProblem(bytes('{"a":{"b":[1,[2]]}}'), 4)).toBeUndefined();
    expect(findBodyProblem(bytes('{"a":{"b":[1,[2]]}}'), 3)).toBe("too-deep");
    expect(findBodyProblem(bytes("[".repeat(10_000) + "]".repeat(10_000)), 32)).toBe("too-deep");
  });

  test("siblings do not add up: depth is how far in, not how many", () => {
    expect(findBodyProblem(bytes(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: [1] })))), 3)).toBeUndefined();
  });

  test("brackets inside strings, escaped quotes included, are text, not nesting", () => {
    expect(findBodyProblem(bytes(JSON.stringify({ note: "[[[[{{{{", quote: 'say \\"[[[[' })), 1)).toBeUndefined();
    expect(
      findBodyProblem(bytes(JSON.stringify({ metadata: JSON.stringify({ a: { b: { c: {} } } }) })), 1),
    ).toBeUndefined();
  });

  test("multi-byte characters do not confuse the scan", () => {
    expect(findBodyProblem(bytes('{"name":"Zoë 🚀 [","x":{"y":1}}'), 2)).toBeUndefined();
    expect(findBodyProblem(bytes('{"name":"Zoë 🚀 [","x":{"y":{}}}'), 2)).toBe("too-deep");
  });

  test("finds a NUL character as a raw byte or as the JSON escape, but not an escaped backslash before 'u0000'", () => {
    expect(findBodyProblem(bytes(JSON.stringify({ name: "a\u0000b" })), 32)).toBe("nul-character");
    expect(findBodyProblem(new Uint8Array([0x7b, 0x00, 0x7d]), 32)).toBe("nul-character");
    expect(findBodyProblem(bytes(JSON.stringify({ name: "a\\u0000b" })), 32)).toBeUndefined();
  });
});
