import { randomUUID } from "node:crypto";

/** The header a request id arrives in (from a trusted proxy) and every answer carries. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** What an id from a proxy may look like: short, and nothing a log line or a header could be bent by. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the one its proxy sent when the immediate peer is a trusted proxy (TRUSTED_PROXIES, as for
 * X-Forwarded-For) and the value is a sane token, so one id follows the request through the proxy's logs and
 * ours; otherwise a new one. A client cannot choose the id a line of our logs carries.
 */
export function requestIdFor(sent: string | null, isFromTrustedProxy: boolean): string {
  return sent !== null && isFromTrustedProxy && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}
