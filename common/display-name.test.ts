import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nameSchema } from "./account.schemas";
import { DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_MESSAGES } from "./display-name";
import { displayNameFrom, displayNameProblem, displayNameSchema, normaliseDisplayName } from "./display-name";
import { organizationNameSchema, teamNameFieldSchema } from "./organization.schemas";

// Characters the rule is about, mixed into random text so the properties meet them often.
const TRICKY = [
  " ",
  "\u00A0", // no-break space
  "\u3000", // ideographic space
  "\u200B", // zero-width space
  "\u200C", // zero-width non-joiner
  "\u200D", // zero-width joiner
  "\uFEFF", // byte order mark
  "\u00AD", // soft hyphen
  "\u3164", // Hangul filler
  "\u2800", // braille blank
  "\u202E", // right-to-left override
  "\u202A",
  "\u2066", // left-to-right isolate
  "\u2069",
  "\u200E", // left-to-right mark
  "\u200F",
  "\uD800", // lone high surrogate
  "\uDC00", // lone low surrogate
  "\t",
  "\n",
  "\u0000",
  "\u0085",
  "e\u0301", // e + combining acute: NFC makes it é
  "\u212B", // angstrom sign: NFC makes it Å
  "=",
  "a",
  "Acme",
  "👩‍💻",
];
const trickyText = fc
  .array(fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: "binary", maxLength: 4 })), { maxLength: 40 })
  .map((parts) => parts.join(""));
const filler = fc.constantFrom("a", "é", "👍", " ", "\u200B");
const longText = fc.array(filler, { minLength: 90, maxLength: 130 }).map((parts) => parts.join(""));

const DIRECTION_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** A character that draws something: not white space, not a format or default-ignorable one, not blank. */
const VISIBLE = /[^\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;

const issueOf = (value: string) => displayNameSchema.safeParse(value).error?.issues.map((issue) => issue.message);

describe("displayNameSchema", () => {
  it("accepts only names that are NFC, trimmed, 1–100 characters, visible and free of control characters", () => {
    fc.assert(
      fc.property(fc.oneof(trickyText, longText), (value) => {
        const result = displayNameSchema.safeParse(value);
        if (!result.success) return;
        const name = result.data;
        expect(name.normalize("NFC")).toBe(name);
        expect(name.trim()).toBe(name);
        expect([...name].length).toBeGreaterThanOrEqual(1);
        expect([...name].length).toBeLessThanOrEqual(DISPLAY_NAME_MAX_LENGTH);
        expect(name).toMatch(VISIBLE);
        expect(name).not.toMatch(DIRECTION_CONTROLS);
        expect(name).not.toMatch(/\p{Cc}|\p{Cs}/u);
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the same name for the same text, however it is padded or composed", () => {
    fc.assert(
      fc.property(trickyText, fc.constantFrom(" ", "\u00A0", "\u2003", "\uFEFF", "\n"), (value, padding) => {
        const result = displayNameSchema.safeParse(value);
        if (!result.success) return;
        expect(displayNameSchema.parse(result.data)).toBe(result.data);
        expect(displayNameSchema.parse(`${padding}${value.normalize("NFD")}${padding}`)).toBe(result.data);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses a direction control anywhere in an otherwise good name", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("Acme", "Zoë Ålund", "فريق", "👩‍💻 team"),
        fc.constantFrom(..."\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C"),
        fc.nat(),
        (name, control, at) => {
          const characters = [...name];
          characters.splice(at % (characters.length + 1), 0, control);
          const value = characters.join("");
          expect(issueOf(value)).toEqual([DISPLAY_NAME_MESSAGES.directionControl]);
        },
      ),
    );
  });

  it.each([
    ["a right-to-left override", "Acme\u202Egpj.exe", DISPLAY_NAME_MESSAGES.directionControl],
    ["an isolate", "Acme\u2067x\u2069", DISPLAY_NAME_MESSAGES.directionControl],
    ["only zero-width spaces", "\u200B\u200B\u200B", DISPLAY_NAME_MESSAGES.invisible],
    ["only joiners and a byte order mark", "\u200D\u200C\uFEFF\u2060", DISPLAY_NAME_MESSAGES.invisible],
    ["only Hangul fillers", "\u3164\u3164", DISPLAY_NAME_MESSAGES.invisible],
    ["only a braille blank", "\u2800", DISPLAY_NAME_MESSAGES.invisible],
    ["a lone high surrogate", "Acme\uD800", DISPLAY_NAME_MESSAGES.brokenCharacter],
    ["a lone low surrogate", "\uDC00Acme", DISPLAY_NAME_MESSAGES.brokenCharacter],
    ["a line break inside", "Acme\nCorp", DISPLAY_NAME_MESSAGES.controlCharacter],
    ["a NUL", "Ac\u0000me", DISPLAY_NAME_MESSAGES.controlCharacter],
    ["a C1 control", "Ac\u0085me", DISPLAY_NAME_MESSAGES.controlCharacter],
    ["nothing but spaces", " \u00A0\u3000 ", DISPLAY_NAME_MESSAGES.empty],
    ["101 characters", "a".repeat(101), DISPLAY_NAME_MESSAGES.tooLong],
    ["a megabyte of padding", `${" ".repeat(1_000_000)}Acme`, DISPLAY_NAME_MESSAGES.tooLong],
  ])("refuses %s", (_case, value, message) => {
    expect(issueOf(value)).toEqual([message]);
  });

  it.each([
    ["trimmed of Unicode white space", "\u00A0 Acme Corp\u3000\uFEFF", "Acme Corp"],
    ["composed (NFC)", "Zoe\u0308 A\u030Alund", "Zoë Ålund"],
    ["with a joiner inside an emoji", "👩‍💻 Platform", "👩‍💻 Platform"],
    ["with a non-joiner inside a word", "می\u200Cخواهم", "می\u200Cخواهم"],
    ["right-to-left text without controls", "فريق التصميم", "فريق التصميم"],
    ["of 100 emoji (counted as characters)", "👍".repeat(100), "👍".repeat(100)],
    ["starting with an equals sign (the CSV export defuses it)", " =1+1", "=1+1"],
  ])("accepts a name %s", (_case, value, stored) => {
    expect(displayNameSchema.parse(value)).toBe(stored);
  });
});

describe("the names that use it", () => {
  it.each([
    ["a user's name", nameSchema, "Enter your name"],
    ["an organization's name", organizationNameSchema, "Enter a name"],
    ["a team's name", teamNameFieldSchema, "Enter a team name"],
  ])("%s follows the display-name rule, with its own word for an empty one", (_case, schema, emptyMessage) => {
    const messageOf = (value: string) => schema.safeParse(value).error?.issues[0]?.message;
    expect(messageOf("\u200B")).toBe(DISPLAY_NAME_MESSAGES.invisible);
    expect(messageOf("Acme\u202Egpj.exe")).toBe(DISPLAY_NAME_MESSAGES.directionControl);
    expect(messageOf("a\uD800")).toBe(DISPLAY_NAME_MESSAGES.brokenCharacter);
    expect(messageOf(" ")).toBe(emptyMessage);
    expect(schema.parse(" Zoe\u0308 ")).toBe("Zoë");
  });
});

describe("displayNameProblem and normaliseDisplayName", () => {
  it("agree with the schema", () => {
    fc.assert(
      fc.property(trickyText, (value) => {
        const problem = displayNameProblem(normaliseDisplayName(value));
        expect(issueOf(value)?.[0]).toBe(problem);
      }),
      { numRuns: 500 },
    );
  });
});

describe("displayNameFrom", () => {
  it("makes an accepted name of any text, or says there is none", () => {
    fc.assert(
      fc.property(fc.oneof(trickyText, longText), (text) => {
        const name = displayNameFrom(text);
        if (name !== undefined) expect(displayNameSchema.parse(name)).toBe(name);
        else expect(normaliseDisplayName(text.replace(/[\p{Cc}\p{Cs}]/gu, ""))).not.toMatch(VISIBLE);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ["Acme\u202Egpj.exe", "Acmegpj.exe"],
    ["\u2067Ada\u2069 Lovelace\u200F", "Ada Lovelace"],
    ["Ada\nLovelace", "Ada Lovelace"],
    ["Ada\uD800", "Ada"],
    ["  Zoe\u0308  ", "Zoë"],
    ["x".repeat(150), "x".repeat(100)],
    ["\u200B\u200B", undefined],
    ["\u202E", undefined],
    ["", undefined],
  ])("makes %j into %j", (text, name) => {
    expect(displayNameFrom(text)).toBe(name);
  });
});
