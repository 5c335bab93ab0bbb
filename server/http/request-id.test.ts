import { describe, expect, test } from "vitest";
import { requestIdFor } from "./request-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("requestIdFor", () => {
  test("keeps a sane id sent by a trusted proxy", () => {
    for (const sent of [
      "a",
      "0f8fad5b-d9cb-469f-a165-70867728950e",
      "1-67891233-abcdef012345678912345678",
      "lb.node_7:42",
      "x".repeat(128),
    ]) {
      expect(requestIdFor(sent, true)).toBe(sent);
    }
  });

  test("replaces an id from a peer that is not a trusted proxy", () => {
    expect(requestIdFor("chosen-by-the-client", false)).toMatch(UUID);
  });

  test("replaces an id that is empty, too long, or has characters outside [A-Za-z0-9._:-]", () => {
    for (const sent of [
      "",
      "x".repeat(129),
      "two words",
      "new\nline",
      'quote"',
      "semi;colon",
      "slash/",
      "key=value",
      "ünïcode",
      "{json}",
    ]) {
      expect(requestIdFor(sent, true), JSON.stringify(sent)).toMatch(UUID);
    }
  });

  test("generates a new id for every request that brings none", () => {
    const ids = new Set(Array.from({ length: 100 }, () => requestIdFor(null, true)));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(UUID);
  });
});
