import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvField } from "./audit.csv";

/** Reads one field back as a spreadsheet would (RFC 4180): quoted fields lose their quotes and doubled quotes. */
function readField(field: string): string {
  if (!field.startsWith('"')) return field;
  expect(field.endsWith('"')).toBe(true);
  const inner = field.slice(1, -1);
  expect(inner.replace(/""/g, "")).not.toContain('"');
  return inner.replace(/""/g, '"');
}

const LEADING = ["", " ", "  ", "\u00A0", "\u2003", "\u3000", "\u202F", "\u200B", "\uFEFF", "\n", "\u00A0 \u2007"];
const TRIGGERS = ["=", "+", "-", "@", "\t", "\r"];

describe("csvField", () => {
  it.each([
    ["a plain value", "Acme", "Acme"],
    ["nothing", null, ""],
    ["a formula", "=1+1", "'=1+1"],
    ["a formula behind a space", " =1+1", "' =1+1"],
    ["a formula behind a no-break space", "\u00A0=1+1", "'\u00A0=1+1"],
    ["a formula behind an ideographic space", "\u3000+1", "'\u3000+1"],
    ["a formula behind a zero-width space", "\u200B@SUM(A1)", "'\u200B@SUM(A1)"],
    ["a minus behind spaces and a tab", " \t -2", "' \t -2"],
    ["a tab first", "\tTabbed", "'\tTabbed"],
    ["a carriage return first", "\rx", '"\'\rx"'],
    ["a formula with a separator", ' =HYPERLINK("http://x","y")', '"\' =HYPERLINK(""http://x"",""y"")"'],
    ["a comma", "Smith, Jo", '"Smith, Jo"'],
    ["quotes", 'say "hi"', '"say ""hi"""'],
    ["a line break", "two\nlines", '"two\nlines"'],
    ["a formula character later on", "a=1", "a=1"],
    ["only spaces", "   ", "   "],
  ])("writes %s", (_case, value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it("defuses every formula start behind any leading white space or format character", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LEADING), fc.constantFrom(...TRIGGERS), fc.string(), (leading, trigger, rest) => {
        const value = `${leading}${trigger}${rest}`;
        expect(readField(csvField(value))).toBe(`'${value}`);
      }),
    );
  });

  it("reads back as the value, with an apostrophe only before what would start a formula", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (value) => {
        const read = readField(csvField(value));
        const isFormula = /^[\p{White_Space}\p{Cf}]*[=+\-@\t\r]/u.test(value);
        expect(read).toBe(isFormula ? `'${value}` : value);
        expect(/^[\p{White_Space}\p{Cf}]*[=+\-@]/u.test(read) && !read.startsWith("'")).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });
});
