import fc from "fast-check";
import { ANY_METHOD, APP_ORIGIN, type Endpoint, type Family, MAX_BODY_STRING, MAX_HEAD_STRING } from "./surface";
import { type PersonaName, placeholder } from "./fixtures";
import {
  BROKEN_ESCAPES,
  type Deep,
  deepArb,
  fullObjectArb,
  JArray,
  type JNode,
  JObject,
  jsonArb,
  keyArb,
  KNOWN_FOR,
  knownArb,
  Raw,
  Repeat,
  type Str,
  stringArb,
} from "./values";

/**
 * Generated requests for the fuzz run: bodies, query strings, path segments and headers, and each endpoint's
 * edge cases.
 */

export const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json; charset=utf-16",
];
/** Mostly the plain type, so that most bodies are read and the handlers behind the parser get the hostile values. */
export const jsonTypeArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  { weight: 2, arbitrary: fc.constantFrom(...JSON_TYPES) },
);
export const WRONG_TYPES = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "application/xml",
  "*/*",
  "",
  "application/json, text/plain",
  "application/jsonx",
];
export const BROKEN_JSON = [
  "{",
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  "[1,2",
  "nul",
  "undefined",
  '{"a":NaN}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\x41"}',
  '"just a string"',
  "42",
  "null",
  "true",
  "[]",
  "",
  " ",
  "\uFEFF{}",
  '{"a":1}{"b":2}',
  '{"__proto__":{"role":"admin","isAdmin":true}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  '{"a":1,"a":{"b":2}}',
];
export const INVALID_UTF8 = [
  [0xff, 0xfe, 0x7b, 0x7d],
  [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d],
  [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
  [0x00, 0x00, 0x00],
];

export type BodySpec =
  | { kind: "json"; value: JNode; contentType: string | undefined }
  | { kind: "text"; text: string | Deep | JObject; contentType: string | undefined }
  | { kind: "bytes"; bytes: number[]; contentType: string | undefined }
  | { kind: "form"; pairs: Array<[Str, Str]>; contentType: string | undefined }
  | { kind: "multipart"; pairs: Array<[Str, Str]>; boundary: string; contentType: string | undefined }
  | { kind: "none"; contentType: string | undefined };

export const optionalType = (types: string[]) => fc.option(fc.constantFrom(...types), { nil: undefined, freq: 6 });

export function bodyArb(keys: string[]): fc.Arbitrary<BodySpec> {
  const pairs = fc.array(fc.tuple(keyArb(keys), stringArb(MAX_BODY_STRING)), { maxLength: 4 });
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc.record({
        kind: fc.constant("json" as const),
        value: fc.oneof(
          { weight: 8, arbitrary: fullObjectArb(keys) },
          { weight: 2, arbitrary: jsonArb },
          // Deep nesting inside an otherwise plausible body, where code that walks one field recursively would meet it.
          {
            weight: 1,
            arbitrary: fc
              .tuple(fullObjectArb(keys), fc.constantFrom(...keys, "metadata", "data"), deepArb)
              .map(([object, key, deep]) => new JObject([...object.entries, [key, deep]])),
          },
        ),
        contentType: jsonTypeArb,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("text" as const),
        text: fc.oneof(
          fc.constantFrom(...BROKEN_JSON),
          deepArb,
          fc
            .tuple(fc.constantFrom(...keys, "metadata", "data"), deepArb)
            .map(([key, deep]) => new JObject([[key, deep]])),
        ),
        contentType: jsonTypeArb,
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("json" as const),
        value: fullObjectArb(keys),
        contentType: optionalType(WRONG_TYPES),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("bytes" as const),
        bytes: fc.constantFrom(...INVALID_UTF8),
        contentType: optionalType(JSON_TYPES),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("form" as const),
        pairs,
        contentType: optionalType(["application/x-www-form-urlencoded", ...JSON_TYPES]),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("multipart" as const),
        pairs,
        boundary: fc.constantFrom("fuzz", "", "a".repeat(100), "--", "\u00e9"),
        contentType: optionalType([
          "multipart/form-data; boundary=fuzz",
          "multipart/form-data; boundary=other",
          "multipart/form-data",
          ...JSON_TYPES,
        ]),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("none" as const),
        contentType: optionalType([...JSON_TYPES, ...WRONG_TYPES]),
      }),
    },
  );
}

export type QueryPair = { key: Str; value: Str; encoding: "encoded" | "raw" | "bracketed" };
export type QuerySpec = { pairs: QueryPair[]; suffix: string };

export function queryArb(keys: string[]): fc.Arbitrary<QuerySpec> {
  const value = fc.oneof(
    { weight: 5, arbitrary: stringArb(MAX_HEAD_STRING) },
    { weight: 1, arbitrary: fc.constantFrom(...BROKEN_ESCAPES) },
  );
  return fc.record({
    // Repeated keys come naturally: the same key may be drawn twice.
    pairs: fc.array(
      fc.record({
        key: keyArb(keys),
        value,
        encoding: fc.constantFrom("encoded" as const, "encoded" as const, "raw" as const, "bracketed" as const),
      }),
      {
        maxLength: 5,
      },
    ),
    suffix: fc.oneof(
      { weight: 5, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: fc.constantFrom(...BROKEN_ESCAPES, "&&", "=&=", "a=1&a=2&a[]=3", "&%&=%=") },
    ),
  });
}

export type Segment = { value: Str; encoding: "encoded" | "raw" };

/** A path segment; `context` (the segment before it and the parameter's name) picks the real ids that fit, e.g. a product id after /products/. */
export function segmentArb(context: string): fc.Arbitrary<Segment> {
  const fitting = KNOWN_FOR.filter(([pattern]) => pattern.test(context)).flatMap(([, keys]) => keys);
  const encoded = (value: fc.Arbitrary<Str>) => fc.record({ value, encoding: fc.constant("encoded" as const) });
  return fc.oneof(
    ...(fitting.length > 0 ? [{ weight: 4, arbitrary: encoded(fc.constantFrom(...fitting).map(placeholder)) }] : []),
    { weight: 2, arbitrary: encoded(knownArb) },
    { weight: 3, arbitrary: encoded(stringArb(2_000)) },
    {
      weight: 1,
      arbitrary: fc.record({
        value: fc.constantFrom(...BROKEN_ESCAPES, "..", ".", ";", "a;b=c"),
        encoding: fc.constant("raw" as const),
      }),
    },
  );
}

export type HeaderSpec = { cookie: Str | undefined; origin: Str | undefined; extra: Array<[string, Str]> };

export const COOKIE_VARIANTS: Str[] = [
  "better-auth.session_token=",
  "better-auth.session_token=%",
  "better-auth.session_token=not-a-token",
  `better-auth.session_token=${placeholder("ownerSessionToken")}`,
  `better-auth.session_token=${placeholder("ownerSessionToken")}.forged-signature`,
  `${placeholder("cookie")}; better-auth.session_token=evil.evil`,
  `better-auth.session_token=evil.evil; ${placeholder("cookie")}`,
  `${placeholder("cookie")}; better-auth.session_data=garbage`,
  "better-auth.session_data=eyJzZXNzaW9uIjp7fX0",
  "__Secure-better-auth.session_token=x.y",
  "better-auth.dont_remember=true",
  "=;=;;",
  ";",
  "a=b=c; ; =d",
  new Repeat("a=b; ", 3_000),
  new Repeat("x", MAX_HEAD_STRING),
];
export const ORIGIN_VARIANTS: Str[] = [
  "null",
  "",
  "http://evil.example.test",
  "http://localhost:3000.evil.example.test",
  "http://localhost:3001",
  "https://localhost:3000",
  "http://LOCALHOST:3000",
  "http://localhost:3000/",
  "http://localhost",
  "http://[::1",
  "javascript:alert(1)",
  "file://",
  "http://localhost:3000\u00a0",
  "http://lоcalhost:3000",
  new Repeat("http://a", 2_000),
];
export const HEADER_NAMES = [
  "x-forwarded-for",
  "x-atrium-client-ip",
  "forwarded",
  "x-real-ip",
  "referer",
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
  "authorization",
  "user-agent",
  "accept",
  "accept-language",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-http-method-override",
  "if-none-match",
  "webhook-signature",
];
export const HEADER_VALUES: Str[] = [
  "Bearer fuzz-token",
  `Bearer ${placeholder("portalToken")}`,
  "Bearer ",
  "Basic Og==",
  "unknown, 1.2.3.4, ::1",
  "999.999.999.999",
  "::ffff:127.0.0.1",
  "127.0.0.1",
  'for="[2001:db8::1]";proto=https',
  "cross-site",
  "same-origin",
  "navigate",
  "document",
  "DELETE",
  "*",
  new Repeat("1.1.1.1, ", 1_500),
];

export function headersArb(family: Family): fc.Arbitrary<HeaderSpec> {
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HEADER_VALUES) },
    { weight: 2, arbitrary: stringArb(MAX_HEAD_STRING) },
  );
  const authorization = fc.constantFrom<Array<[string, Str]>>(
    [["authorization", "Bearer fuzz-token"]],
    [["authorization", `Bearer ${placeholder("portalToken")}`]],
  );
  return fc.record({
    cookie: fc.oneof(
      { weight: 6, arbitrary: fc.constant(placeholder("cookie")) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constantFrom(...COOKIE_VARIANTS) },
    ),
    origin: fc.oneof(
      { weight: 12, arbitrary: fc.constant(APP_ORIGIN) },
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: fc.constantFrom(...ORIGIN_VARIANTS) },
      { weight: 1, arbitrary: stringArb(MAX_HEAD_STRING) },
    ),
    // The sandbox answers 401 to every API call without a bearer token: most calls carry one, to reach its handlers.
    extra: fc
      .tuple(
        family === "sandbox" ? fc.oneof({ weight: 4, arbitrary: authorization }, fc.constant([])) : fc.constant([]),
        fc.array(fc.tuple(fc.constantFrom(...HEADER_NAMES), value), { maxLength: 3 }),
      )
      .map(([first, rest]) => [...first, ...rest]),
  });
}

export type FuzzRequest = {
  persona: PersonaName;
  method: string;
  params: Segment[];
  tail: Segment[];
  query: QuerySpec;
  headers: HeaderSpec;
  body: BodySpec | undefined;
};

export function requestArb(endpoint: Endpoint): fc.Arbitrary<FuzzRequest> {
  const parts = endpoint.pattern.split("/");
  const params = parts.flatMap((part, index) =>
    part.startsWith(":") ? [segmentArb(`${parts[index - 1] ?? ""} ${part}`)] : [],
  );
  const isAdminEndpoint = endpoint.pattern.includes("/admin/");
  const persona = fc.oneof(
    { weight: 1, arbitrary: fc.constant<PersonaName>("anonymous") },
    { weight: isAdminEndpoint ? 1 : 3, arbitrary: fc.constant<PersonaName>("owner") },
    { weight: isAdminEndpoint ? 4 : 1, arbitrary: fc.constant<PersonaName>("admin") },
  );
  // Now and then the wrong method: the router must refuse it as cleanly as the handler refuses bad input.
  const method = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...endpoint.methods) },
    { weight: 1, arbitrary: fc.constantFrom(...ANY_METHOD) },
  );
  return method.chain((chosen) =>
    fc.record({
      persona,
      method: fc.constant(chosen),
      params: fc.tuple(...params),
      tail: endpoint.pattern.endsWith("*")
        ? fc.array(segmentArb(endpoint.pattern), { minLength: 1, maxLength: 3 })
        : fc.constant([]),
      query: queryArb(endpoint.queryKeys),
      headers: headersArb(endpoint.family),
      body: chosen === "GET" || chosen === "HEAD" ? fc.constant(undefined) : bodyArb(endpoint.bodyKeys),
    }),
  );
}

/**
 * The same few edge cases for every endpoint, run before the random ones so that a fixed seed cannot miss them:
 * no body at all, an empty object, every field and parameter holding a NUL, every field of the wrong type, and
 * each query parameter the endpoint declares holding a NUL on its own (so no other parameter's validation hides it).
 */
export function edgeCases(endpoint: Endpoint): FuzzRequest[] {
  const method = endpoint.methods[0] ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const parts = endpoint.pattern.split("/");
  const fitting = (context: string) => KNOWN_FOR.find(([pattern]) => pattern.test(context))?.[1][0];
  const params = (value?: Str): Segment[] =>
    parts.flatMap((part, index) => {
      if (!part.startsWith(":")) return [];
      const key = fitting(`${parts[index - 1] ?? ""} ${part}`);
      return [{ value: value ?? (key ? placeholder(key) : "fuzz"), encoding: "encoded" as const }];
    });
  const tail = (value?: Str): Segment[] =>
    endpoint.pattern.endsWith("*") ? [{ value: value ?? "fuzz", encoding: "encoded" }] : [];
  const json = (entries: Array<[Str, JNode]>): BodySpec | undefined =>
    hasBody ? { kind: "json", value: new JObject(entries), contentType: "application/json" } : undefined;
  const base: FuzzRequest = {
    persona: endpoint.pattern.includes("/admin/") ? "admin" : "owner",
    method,
    params: params(),
    tail: tail(),
    query: { pairs: [], suffix: "" },
    headers: {
      cookie: placeholder("cookie"),
      origin: APP_ORIGIN,
      extra: endpoint.family === "sandbox" ? [["authorization", "Bearer fuzz-token"]] : [],
    },
    body: hasBody ? { kind: "none", contentType: undefined } : undefined,
  };
  const nul = "a\u0000b";
  const bodyKeys = endpoint.bodyKeys.slice(0, 40);
  return [
    base,
    { ...base, body: json([]) },
    {
      ...base,
      params: params(nul),
      tail: tail(nul),
      query: {
        pairs: endpoint.queryKeys.slice(0, 40).map((key) => ({ key, value: nul, encoding: "encoded" as const })),
        suffix: "",
      },
      body: json(bodyKeys.map((key) => [key, nul])),
    },
    {
      ...base,
      query: {
        pairs: endpoint.queryKeys.slice(0, 40).map((key) => ({ key, value: "[]", encoding: "bracketed" as const })),
        suffix: "",
      },
      body: json(
        bodyKeys.map((key, index) => [
          key,
          [1, true, new JArray([]), new JObject([["a", null]]), new Raw("1e999")][index % 5] ?? null,
        ]),
      ),
    },
    // The sandbox's keys are one pool for all its routes, not the route's own: one request per key would be noise.
    ...(endpoint.family === "sandbox" ? [] : endpoint.queryKeys).map((key): FuzzRequest => ({
      ...base,
      query: { pairs: [{ key, value: nul, encoding: "encoded" }], suffix: "" },
    })),
  ];
}
