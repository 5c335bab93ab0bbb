/**
 * The seed's browser: requests to the app in process (`app.request()`), with a cookie jar and the app's Origin
 * on writes, as the web app sends them. It checks each answer, so a refused step stops the seed where it happens.
 */
export type SeedTarget = {
  app: { request(url: string, init: RequestInit, env: unknown): Response | Promise<Response> };
  baseUrl: string;
};

export type SeedClient = { post(pathname: string, body: unknown): Promise<unknown> };

/** The address the seed's requests come from, for the client-IP middleware. */
const SEED_IP = "127.0.0.1";

export function createSeedClient(target: SeedTarget): SeedClient {
  const cookies = new Map<string, string>();
  const origin = new URL(target.baseUrl).origin;
  return {
    async post(pathname, body) {
      const headers = new Headers({ "content-type": "application/json", origin });
      if (cookies.size > 0) headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
      const url = new URL(pathname, target.baseUrl).toString();
      const init = { method: "POST", headers, body: JSON.stringify(body) };
      const response = await target.app.request(url, init, { incoming: { socket: { remoteAddress: SEED_IP } } });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const separator = pair.indexOf("=");
        if (separator > 0) cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
      }
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${pathname} answered ${response.status} ${text}`);
      return text === "" ? null : (JSON.parse(text) as unknown);
    },
  };
}
