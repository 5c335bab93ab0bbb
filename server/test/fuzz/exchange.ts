import { createHash } from "node:crypto";
import { createClient, randomIp } from "../request";
import { settleBilling } from "../billing";
import { withTimeout } from "../../timeout";
import { type Endpoint, type Family, type LogEntry, REQUEST_DEADLINE_MS, SEED, server, serverLog } from "./surface";
import { ensurePersonas, ensureSandbox, known, personas, PLACEHOLDER } from "./fixtures";
import type { KnownKey, PersonaName } from "./fixtures";
import { cut, describeChanges, snapshot } from "./snapshots";
import { type Str, text, toJson } from "./values";
import type { FuzzRequest, Segment } from "./requests";

/**
 * Sending a generated request to the fuzzed app, and judging the answer (no 5xx; a refused request changes no
 * table).
 */

// ---------------------------------------------------------------------------------------------------------
// Sending a generated request, and judging the answer

/** UTF-8 percent-encoding that, unlike encodeURIComponent, also takes lone surrogates (as U+FFFD, as a browser would). */
export function percentEncode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** What a header can carry: the UTF-8 bytes as Latin-1 (as Node hands them over), without the bytes HTTP forbids. */
export function headerValue(value: string): string {
  return Buffer.from(value, "utf8")
    .toString("latin1")
    .replace(/[\0\r\n]/g, "");
}

export function resolve(textWithPlaceholders: string, persona: PersonaName): string {
  return textWithPlaceholders.replace(PLACEHOLDER, (match, key: string) => {
    if (key === "cookie") return persona === "anonymous" ? "" : (personas[persona]?.cookie ?? "");
    return known[key as KnownKey] ?? match;
  });
}

export type Sent = { method: string; url: string; headers: Record<string, string>; body: Buffer | undefined };

export function materialize(endpoint: Endpoint, request: FuzzRequest): Sent {
  const params = [...request.params];
  const segment = ({ value, encoding }: Segment) => (encoding === "raw" ? text(value) : percentEncode(text(value)));
  const pathname = endpoint.pattern
    .split("/")
    .map((part) =>
      part.startsWith(":")
        ? segment(params.shift() ?? { value: "", encoding: "raw" })
        : part === "*"
          ? request.tail.map(segment).join("/")
          : part,
    )
    .join("/")
    // A leading "//" would make the URL parser read a host: the path stays a path.
    .replace(/^\/+/, "/");
  const query = [
    ...request.query.pairs.map(({ key, value, encoding }) => {
      if (encoding === "raw") return `${text(key)}=${text(value)}`.replace(/#/g, "%23");
      const name =
        encoding === "bracketed"
          ? `${percentEncode(text(key))}[${percentEncode(text(key))}][]`
          : percentEncode(text(key));
      return `${name}=${percentEncode(text(value))}`;
    }),
    ...(request.query.suffix ? [request.query.suffix] : []),
  ].join("&");
  const url = resolve(`${pathname}${query ? `?${query}` : ""}`, request.persona);

  const headers: Record<string, string> = {};
  const setHeader = (name: string, value: Str | undefined) => {
    if (value === undefined) return;
    const resolved = headerValue(resolve(text(value), request.persona));
    if (resolved.trim()) headers[name] = resolved;
  };
  setHeader("cookie", request.headers.cookie);
  setHeader("origin", request.headers.origin);
  for (const [name, value] of request.headers.extra) setHeader(name, value);

  const body = request.body;
  if (!body) return { method: request.method, url, headers, body: undefined };
  if (body.contentType !== undefined) headers["content-type"] = body.contentType;
  const utf8 = (value: string) => Buffer.from(resolve(value, request.persona), "utf8");
  switch (body.kind) {
    case "json":
      return { method: request.method, url, headers, body: utf8(toJson(body.value)) };
    case "text":
      return {
        method: request.method,
        url,
        headers,
        body: utf8(typeof body.text === "string" ? body.text : toJson(body.text)),
      };
    case "bytes":
      return { method: request.method, url, headers, body: Buffer.from(body.bytes) };
    case "form":
      return {
        method: request.method,
        url,
        headers,
        body: utf8(
          body.pairs.map(([key, value]) => `${percentEncode(text(key))}=${percentEncode(text(value))}`).join("&"),
        ),
      };
    case "multipart": {
      const parts = body.pairs.map(
        ([key, value]) =>
          `--${body.boundary}\r\nContent-Disposition: form-data; name="${text(key)}"\r\n\r\n${text(value)}\r\n`,
      );
      return { method: request.method, url, headers, body: utf8(`${parts.join("")}--${body.boundary}--\r\n`) };
    }
    case "none":
      return { method: request.method, url, headers, body: undefined };
  }
}

export function describeRequest(persona: PersonaName, sent: Sent): string {
  const headerLines = Object.entries(sent.headers).map(
    ([name, value]) => `  ${name}: ${cut(JSON.stringify(value), 200)}`,
  );
  const bodyLine =
    sent.body === undefined
      ? "  (no body)"
      : `  body (${sent.body.length} bytes): ${cut(JSON.stringify(sent.body.toString("utf8")), 400)}`;
  return [`${sent.method} ${cut(sent.url, 400)}  as ${persona}`, ...headerLines, bodyLine].join("\n");
}

export function describeLog(entries: LogEntry[]): string {
  if (entries.length === 0) return "server log: (nothing)";
  return [
    "server log:",
    ...entries.map(
      (entry) => `  ${entry.level} ${cut(entry.message, 300)} ${cut(JSON.stringify(entry.fields ?? {}), 1_200)}`,
    ),
  ].join("\n");
}

export async function withDeadline<T>(work: Promise<T>, what: () => string): Promise<T> {
  return await withTimeout(
    REQUEST_DEADLINE_MS,
    () => `no answer within ${REQUEST_DEADLINE_MS} ms\n${what()}`,
    () => work,
  );
}

/** Every answer, so the last test can tell whether the generated requests got past the gates to the handlers. */
export const answers: Array<{ family: Family; pattern: string; persona: PersonaName; status: number }> = [];

export async function exchange(endpoint: Endpoint, request: FuzzRequest): Promise<void> {
  await ensurePersonas();
  if (endpoint.family === "sandbox") await ensureSandbox();
  // Mail queued and webhooks sent by an earlier, successful request are delivered and applied now, so their rows
  // do not change under this one.
  await server.services.worker.drain();
  await settleBilling(server);
  const sent = materialize(endpoint, request);
  const before = await snapshot();
  const logStart = serverLog.length;
  const client = createClient(server, randomIp());
  const answer = await withDeadline(
    (async () => {
      const response = await client.request(sent.url, {
        method: sent.method,
        headers: sent.headers,
        body: sent.body && Uint8Array.from(sent.body),
        origin: null,
        withoutCookies: true,
      });
      return { status: response.status, text: await response.text() };
    })(),
    () => describeRequest(request.persona, sent),
  );
  const report = (problem: string, details: string[] = []) =>
    [
      problem,
      describeRequest(request.persona, sent),
      `→ ${answer.status} ${cut(answer.text, 600)}`,
      ...details,
      describeLog(serverLog.slice(logStart)),
    ].join("\n");
  answers.push({ family: endpoint.family, pattern: endpoint.pattern, persona: request.persona, status: answer.status });
  if (answer.status >= 500) throw new Error(report(`answered ${answer.status}`));
  if (answer.status >= 400) {
    // A declined test card is the one refusal the provider records: the checkout turns `failed` (and webhooks say so)
    // before the 400 goes out, exactly as the sandbox's own tests expect.
    const isRecordedDecline =
      endpoint.family === "sandbox" && answer.status === 400 && answer.text.includes('"error":"PaymentError"');
    const changes = describeChanges(
      before,
      await snapshot(),
      (table) => isRecordedDecline && (table.startsWith("sandbox:") || table.startsWith("billing_")),
    );
    if (changes.length > 0) throw new Error(report(`refused with ${answer.status} but changed the database`, changes));
  }
}

/** A seed per endpoint, fixed and independent of the others, so adding an endpoint does not reshuffle every other one's inputs. */
export function seedFor(endpoint: Endpoint): number {
  return (createHash("sha256").update(endpoint.label).digest().readInt32BE(0) ^ SEED) | 0;
}
