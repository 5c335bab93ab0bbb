import fc from "fast-check";
import { APP_ORIGIN, GLOBAL_KEYS, MAX_BODY_STRING, PROTO_KEYS } from "./surface";
import { KNOWN_KEYS, type KnownKey, placeholder } from "./fixtures";

/**
 * Generated values for the fuzz run: strings, JSON documents and the fields an endpoint reads.
 */

// ---------------------------------------------------------------------------------------------------------
// Generated inputs. Long and deep values are kept as small descriptions and built only when sent, so a
// counterexample prints as `"🦄".repeat(30000)` rather than as 30000 unicorns.

export class Repeat {
  constructor(
    readonly unit: string,
    readonly times: number,
  ) {}
  toString(): string {
    return this.unit.repeat(this.times);
  }
  [fc.toStringMethod](): string {
    return `${fc.stringify(this.unit)}.repeat(${this.times})`;
  }
}
export type Str = string | Repeat;
export const text = (value: Str): string => (typeof value === "string" ? value : value.toString());

/** A JSON literal JSON.stringify would never write (1e999, -0, 30 digits). */
export class Raw {
  constructor(readonly literal: string) {}
  [fc.toStringMethod](): string {
    return `raw(${this.literal})`;
  }
}

/** Arrays or objects nested `depth` levels deep, written directly: JSON.stringify would overflow first. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly shape: "array" | "object" | "mixed",
  ) {}
  toString(): string {
    const open = { array: "[", object: '{"a":', mixed: '[{"a":' }[this.shape];
    const close = { array: "]", object: "}", mixed: "}]" }[this.shape];
    return `${open.repeat(this.depth)}1${close.repeat(this.depth)}`;
  }
  [fc.toStringMethod](): string {
    return `deep(${this.shape}, ${this.depth})`;
  }
}

export class JArray {
  constructor(readonly items: JNode[]) {}
  [fc.toStringMethod](): string {
    return `[${this.items.map((item) => fc.stringify(item)).join(", ")}]`;
  }
}

/** Entries rather than an object, so that duplicate keys and an own `__proto__` key survive into the JSON text. */
export class JObject {
  constructor(readonly entries: Array<[Str, JNode]>) {}
  [fc.toStringMethod](): string {
    return `{${this.entries.map(([key, value]) => `${fc.stringify(key)}: ${fc.stringify(value)}`).join(", ")}}`;
  }
}

export type JNode = null | boolean | number | Str | Raw | Deep | JArray | JObject;

export function toJson(node: JNode): string {
  if (node instanceof Raw) return node.literal;
  if (node instanceof Deep) return node.toString();
  if (node instanceof JArray) return `[${node.items.map(toJson).join(",")}]`;
  if (node instanceof JObject)
    return `{${node.entries.map(([key, value]) => `${JSON.stringify(text(key))}:${toJson(value)}`).join(",")}}`;
  if (node instanceof Repeat) return JSON.stringify(node.toString());
  return JSON.stringify(node) ?? "null";
}

export const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uDFFF",
  "x\uDBFFy",
  "\u202Eevil\u202C",
  "\u200F\u200E",
  "\u200B",
  "\uFEFF",
  "\u2028\u2029",
  "🦄",
  "👩‍👩‍👧‍👦",
  "e\u0301",
  "İı",
  "ß",
  "\t\r\n",
  "%",
  "%00",
  "%zz",
  "../../etc/passwd",
  "' OR '1'='1",
  '"; DROP TABLE "user"; --',
  "<script>alert(1)</script>",
  "${7*7}",
  "__proto__",
  "constructor",
  "prototype",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "*",
  "@",
  "a@b",
  "javascript:alert(1)",
  "http://evil.example.test/",
  "//evil.example.test",
  "/\\evil.example.test",
  "\\",
  "/",
  "..",
];
export const BROKEN_ESCAPES = [
  "%",
  "%2",
  "%zz",
  "%E0%A4",
  "%ED%A0%80",
  "%C0%AF",
  "%FF%FE",
  "%%",
  "%u0041",
  "%00",
  "%2F",
  "%2e%2e",
  "+",
  "%26",
  "%3D",
  "%23",
];
export const PLAUSIBLE = {
  email: ["fuzz.user@example.test", "FUZZ.USER@EXAMPLE.TEST", " fuzz.user@example.test "],
  password: ["Fuzz-password-123", "short"],
  role: ["member", "admin", "owner", "user", "member,admin", "superuser"],
  url: [
    "/dashboard",
    `${APP_ORIGIN}/dashboard`,
    "http://evil.example.test/",
    "https://localhost:3000@evil.example.test/",
  ],
  name: ["Fuzz", "fuzz-slug", "fuzz_user"],
  generic: ["true", "1", "fuzz", "example"],
};
export const KNOWN_FOR: Array<[RegExp, KnownKey[]]> = [
  [/email/i, ["ownerEmail", "memberEmail", "adminEmail"]],
  [/user.?id|^id$/i, ["ownerUserId", "memberUserId", "adminUserId"]],
  [/organization|org/i, ["organizationId", "organizationSlug"]],
  [/slug/i, ["organizationSlug"]],
  [/team/i, ["teamId"]],
  [/member/i, ["ownerMemberId", "memberMemberId", "memberEmail"]],
  [/invitation|^id$/i, ["invitationId"]],
  [/token/i, ["ownerSessionToken", "portalToken"]],
  [/product/i, ["productId"]],
  [/customer/i, ["customerId", "organizationId"]],
  [/external/i, ["organizationId"]],
  [/checkout|secret/i, ["checkoutId", "checkoutSecret", "paidCheckoutId"]],
  [/subscription/i, ["subscriptionId"]],
  [/order/i, ["orderId"]],
];

export const knownArb = fc.constantFrom(...KNOWN_KEYS).map(placeholder);

export const longArb = (max: number): fc.Arbitrary<Repeat> =>
  fc
    .record({
      unit: fc.constantFrom("a", "é", "🦄", "\u0000", "\uD800", "%", "\u202E", " ", "<"),
      length: fc.integer({ min: 256, max }),
    })
    .map(({ unit, length }) => new Repeat(unit, Math.max(1, Math.floor(length / unit.length))));

export const stringArb = (maxLong: number): fc.Arbitrary<Str> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 24 }) },
    { weight: 3, arbitrary: knownArb },
    { weight: 2, arbitrary: fc.constantFrom(...Object.values(PLAUSIBLE).flat()) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.oneof(knownArb, fc.constantFrom(...PLAUSIBLE.email)), fc.constantFrom(...NASTY_STRINGS))
        .map(([base, tail]) => base + tail),
    },
    { weight: 1, arbitrary: longArb(maxLong) },
  );

export const keyArb = (keys: string[]): fc.Arbitrary<Str> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(keys.length > 0 ? keys : GLOBAL_KEYS)) },
    { weight: 2, arbitrary: fc.constantFrom(...GLOBAL_KEYS) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  );

export const deepArb = fc
  .record({
    depth: fc.integer({ min: 64, max: 5_000 }),
    shape: fc.constantFrom("array" as const, "object" as const, "mixed" as const),
  })
  .map(({ depth, shape }) => new Deep(depth, shape));

export const { value: jsonArb } = fc.letrec<{ value: JNode; array: JNode; object: JNode }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    { weight: 6, arbitrary: stringArb(MAX_BODY_STRING) },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("1e999", "-0", "123456789012345678901234567890", "1E-400", "-9007199254740993")
        .map((literal) => new Raw(literal)),
    },
    { weight: 2, arbitrary: tie("array") },
    { weight: 2, arbitrary: tie("object") },
  ),
  array: fc.array(tie("value"), { maxLength: 4 }).map((items) => new JArray(items)),
  object: fc
    .array(fc.tuple(keyArb(GLOBAL_KEYS), tie("value")), { maxLength: 4 })
    .map((entries) => new JObject(entries)),
}));

/** A value for a named field: mostly something that looks right for the name (a real id, an e-mail), so handlers get past their first check. */
export function fieldValueArb(key: string): fc.Arbitrary<JNode> {
  const knownKeys = KNOWN_FOR.filter(([pattern]) => pattern.test(key)).flatMap(([, keys]) => keys);
  const plausible = /mail/i.test(key)
    ? PLAUSIBLE.email
    : /password/i.test(key)
      ? PLAUSIBLE.password
      : /role/i.test(key)
        ? PLAUSIBLE.role
        : /url|redirect/i.test(key)
          ? PLAUSIBLE.url
          : /name|slug/i.test(key)
            ? PLAUSIBLE.name
            : PLAUSIBLE.generic;
  return fc.oneof(
    {
      weight: 3,
      arbitrary: knownKeys.length > 0 ? fc.constantFrom(...knownKeys).map(placeholder) : fc.constantFrom(...plausible),
    },
    { weight: 2, arbitrary: fc.constantFrom(...plausible) },
    { weight: 2, arbitrary: jsonArb },
  );
}

/** Every field the endpoint reads, each present or not, plausible or hostile, plus a few extra keys. */
export function fullObjectArb(keys: string[]): fc.Arbitrary<JObject> {
  const field = (key: string) => fc.tuple(fc.constant<Str>(key), fieldValueArb(key));
  // A small schema: each field present or not. A large pool (the sandbox's): a handful of its fields.
  const fields: fc.Arbitrary<Array<[Str, JNode]>> =
    keys.length <= 12
      ? fc
          .tuple(...keys.map((key) => fc.option(field(key), { nil: undefined, freq: 5 })))
          .map((entries) => entries.filter((entry) => entry !== undefined))
      : fc.shuffledSubarray(keys, { maxLength: 8 }).chain((chosen) => fc.tuple(...chosen.map(field)));
  return fc
    .tuple(fields, fc.array(fc.tuple(keyArb(keys), jsonArb), { maxLength: 2 }))
    .map(([present, extra]) => new JObject([...present, ...extra]));
}
