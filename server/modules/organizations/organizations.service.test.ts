import { describe, expect, it } from "vitest";
import { DomainError } from "../../../common/domain-error";
import { METADATA_MAX_BYTES, METADATA_MAX_DEPTH } from "./organizations.schemas";
import { normalizeMetadata } from "./organizations.service";

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let level = 1; level < levels; level += 1) value = { child: value };
  return value;
}

/** The error normalizeMetadata throws for `input`, as status and message. */
function refusal(input: unknown): { status: unknown; message: string } {
  try {
    normalizeMetadata(input);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("INVALID_METADATA");
    return { status: (error as DomainError).status, message: (error as DomainError).message };
  }
  throw new Error(`normalizeMetadata accepted ${JSON.stringify(input)?.slice(0, 80)}`);
}

describe("normalizeMetadata", () => {
  it("refuses metadata nested 100,000 levels deep with a 400, walking no further than the limit", () => {
    expect(refusal(nested(100_000))).toEqual({
      status: 400,
      message: `metadata may be nested at most ${METADATA_MAX_DEPTH} levels deep`,
    });
  });

  it("passes no metadata through as undefined", () => {
    expect(normalizeMetadata(undefined)).toBeUndefined();
    expect(normalizeMetadata(null)).toBeUndefined();
  });

  it("accepts a map and returns it", () => {
    const metadata = { plan: "pro", seats: 5, tags: ["a", "b"], nested: { ok: true } };
    expect(normalizeMetadata(metadata)).toEqual(metadata);
  });

  it("accepts the JSON string of a map and returns the map", () => {
    expect(normalizeMetadata('{"plan":"team","limits":{"seats":3}}')).toEqual({ plan: "team", limits: { seats: 3 } });
  });

  it(`accepts exactly ${METADATA_MAX_DEPTH} levels and refuses ${METADATA_MAX_DEPTH + 1}`, () => {
    expect(normalizeMetadata(nested(METADATA_MAX_DEPTH))).toEqual(nested(METADATA_MAX_DEPTH));
    expect(normalizeMetadata(JSON.stringify(nested(METADATA_MAX_DEPTH)))).toEqual(nested(METADATA_MAX_DEPTH));
    const tooDeep = { status: 400, message: "metadata may be nested at most 10 levels deep" };
    expect(refusal(nested(METADATA_MAX_DEPTH + 1))).toEqual(tooDeep);
    expect(refusal(JSON.stringify(nested(METADATA_MAX_DEPTH + 1)))).toEqual(tooDeep);
  });

  it("counts arrays as levels too", () => {
    let value: unknown = 1;
    for (let level = 0; level < METADATA_MAX_DEPTH; level += 1) value = [value];
    expect(refusal({ list: value }).message).toBe("metadata may be nested at most 10 levels deep");
  });

  it("accepts 16 KB and refuses one byte more, as a map or as a string", () => {
    const overhead = JSON.stringify({ blob: "" }).length;
    const exact = { blob: "x".repeat(METADATA_MAX_BYTES - overhead) };
    expect(JSON.stringify(exact).length).toBe(METADATA_MAX_BYTES);
    expect(normalizeMetadata(exact)).toEqual(exact);
    expect(normalizeMetadata(JSON.stringify(exact))).toEqual(exact);

    const over = { blob: "x".repeat(METADATA_MAX_BYTES - overhead + 1) };
    const tooLarge = { status: 400, message: "metadata may be at most 16 KB" };
    expect(refusal(over)).toEqual(tooLarge);
    expect(refusal(JSON.stringify(over))).toEqual(tooLarge);
  });

  it("measures bytes, not characters", () => {
    const overhead = JSON.stringify({ blob: "" }).length;
    // "é" is two bytes in UTF-8: half as many characters already reach the limit.
    const multiByte = { blob: "é".repeat(Math.ceil((METADATA_MAX_BYTES - overhead) / 2) + 1) };
    expect(refusal(multiByte).message).toBe("metadata may be at most 16 KB");
  });

  it("refuses prototype-polluting keys at any depth", () => {
    expect(refusal('{"__proto__":{"polluted":true}}')).toEqual({
      status: 400,
      message: 'metadata may not contain the key "__proto__"',
    });
    expect(refusal('{"a":{"b":{"__proto__":{}}}}').message).toBe('metadata may not contain the key "__proto__"');
    expect(refusal({ constructor: { prototype: { polluted: true } } }).message).toBe(
      'metadata may not contain the key "constructor"',
    );
    expect(refusal({ nested: { prototype: 1 } }).message).toBe('metadata may not contain the key "prototype"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses what is not a map", () => {
    for (const input of [[1, 2], "[1,2]", 42, "42", '"text"', "null", true]) {
      expect(refusal(input).status).toBe(400);
    }
    expect(refusal([1]).message).toBe("metadata must be an object");
    expect(refusal("{not json").message).toBe("metadata is not valid JSON");
  });
});
