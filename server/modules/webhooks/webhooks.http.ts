import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { guardedLookup, hostOf, refusalOf, RefusedAddressError, type AddressPolicy } from "./webhooks.address";

/** How much of an answer's body the delivery log keeps. */
export const RESPONSE_EXCERPT_CHARS = 1_000;
/** How much of an answer's body is read at most, to keep the excerpt; the rest is not waited for. */
const MAX_READ_BYTES = 16 * 1024;

export type PostResult =
  { statusCode: number; excerpt: string; durationMs: number } | { error: string; durationMs: number };

/**
 * POSTs one webhook: the connection goes to an address the policy allows (resolved once, by the guarded lookup), no
 * redirect is followed (a 3xx is the answer), and the whole exchange, connection to body, ends at `timeoutMs`.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; policy: AddressPolicy },
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const literal = hostOf(target);
  if (isIP(literal) && refusalOf(literal, options.policy))
    return Promise.resolve({ error: new RefusedAddressError(literal).message, durationMs: 0 });
  const transport = target.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = transport.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        lookup: guardedLookup(options.policy),
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            statusCode: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_EXCERPT_CHARS),
            durationMs: elapsed(),
          });
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= MAX_READ_BYTES) done();
        });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(
      () => finish({ error: `timed out after ${options.timeoutMs / 1000} s`, durationMs: elapsed() }),
      options.timeoutMs,
    );
    request.on("error", (error) => finish({ error: error.message, durationMs: elapsed() }));
    request.end(body);
  });
}
