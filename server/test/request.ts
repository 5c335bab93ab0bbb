import { randomInt } from "node:crypto";

/** What a client needs of an app: its HTTP surface (Hono's `request`) and its base URL. */
export type RequestTarget = {
  app: {
    request(
      input: string,
      init: RequestInit,
      env: { incoming: { socket: { remoteAddress: string } } },
    ): Response | Promise<Response>;
  };
  config: { baseUrl: string };
};

/**
 * A random client address from 198.18.0.0/15 (set aside for tests): every client gets its own
 * rate-limit bucket, even in Redis, which outlives a single run.
 */
export function randomIp(): string {
  return `198.${randomInt(18, 20)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

/** A tiny cookie jar: keeps what `Set-Cookie` sets, forgets what it expires. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const separator = pair.indexOf("=");
      if (separator < 1) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const isExpired =
        attributes.some((attribute) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(attribute)) || value === "";
      if (isExpired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  /** Puts a cookie back as a browser holding an old copy would send it. */
  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  get size(): number {
    return this.cookies.size;
  }

  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  clear(): void {
    this.cookies.clear();
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read loosely: each test asserts the fields it reads
type AnyJson = any;

/**
 * The app's answer as a client sees it: a `Response` (status, headers, `text()`, `json()` work as usual), with
 * its body already read into `data`: the parsed JSON, the text when it is not JSON, `null` when it is empty.
 */
export class TestResponse<T = AnyJson> extends Response {
  constructor(
    text: string,
    init: ResponseInit,
    readonly data: T,
  ) {
    super(text === "" ? null : text, init);
  }

  static async from(response: Response): Promise<TestResponse> {
    const text = await response.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = text;
    }
    return new TestResponse(
      text,
      { status: response.status, statusText: response.statusText, headers: response.headers },
      data,
    );
  }
}

export type CallOptions = {
  method?: string;
  /** A value sent as JSON; a string is sent as it is (set `contentType` to say what it is). */
  json?: unknown;
  body?: RequestInit["body"];
  contentType?: string;
  headers?: Record<string, string>;
  /** The Origin header; defaults to the app's own origin on anything but GET/HEAD. `null` sends none. */
  origin?: string | null;
  /** Sends the request from this socket address instead of the client's own. */
  ip?: string;
  /** Leaves the cookie jar out of this request. */
  withoutCookies?: boolean;
  /**
   * Sends the request over real HTTP to the app's listener (`createTestApp({ listen: true })`), from 127.0.0.1:
   * what a page served on Node's own request and response needs (the dev identity provider).
   */
  overHttp?: boolean;
};

/**
 * A browser-like client of the app: one socket address, a cookie jar, the app's Origin on writes.
 * Requests go through `app.request()` with a fake Node socket, so the client-IP middleware sees an address.
 * The one client of the tests: nothing here depends on the test runner.
 */
export class TestClient {
  readonly jar = new CookieJar();

  constructor(
    private readonly target: RequestTarget,
    readonly ip: string = randomIp(),
  ) {}

  async request(pathname: string, options: CallOptions = {}): Promise<TestResponse> {
    const method = options.method ?? (options.json !== undefined || options.body !== undefined ? "POST" : "GET");
    const headers = new Headers(options.headers);
    let body = options.body;
    if (options.json !== undefined) {
      body = typeof options.json === "string" ? options.json : JSON.stringify(options.json);
      headers.set("content-type", options.contentType ?? "application/json");
    } else if (options.contentType) {
      headers.set("content-type", options.contentType);
    }
    const origin =
      options.origin === undefined
        ? method === "GET" || method === "HEAD"
          ? undefined
          : new URL(this.target.config.baseUrl).origin
        : options.origin;
    if (origin) headers.set("origin", origin);
    const cookie = this.jar.header();
    if (cookie && !options.withoutCookies && !headers.has("cookie")) headers.set("cookie", cookie);
    const url = new URL(pathname, this.target.config.baseUrl).toString();
    const init: RequestInit & { duplex?: "half" } = { method, headers, body };
    if (body instanceof ReadableStream) init.duplex = "half";
    const response = options.overHttp
      ? await fetch(url, { ...init, redirect: "manual" })
      : await this.target.app.request(url, init, { incoming: { socket: { remoteAddress: options.ip ?? this.ip } } });
    if (!options.withoutCookies) this.jar.store(response);
    return TestResponse.from(response);
  }

  get(pathname: string, options: Omit<CallOptions, "method" | "json"> = {}): Promise<TestResponse> {
    return this.request(pathname, { ...options, method: "GET" });
  }

  post(pathname: string, json?: unknown, options: Omit<CallOptions, "method" | "json"> = {}): Promise<TestResponse> {
    return this.request(pathname, { ...options, method: "POST", json: json ?? {} });
  }
}

export function createClient(target: RequestTarget, ip?: string): TestClient {
  return new TestClient(target, ip);
}

/** Reads a JSON body; fails the test with the raw text when it is not JSON. */
export async function readJson<T = Record<string, unknown>>(response: Response): Promise<T> {
  const text = await response.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`Expected a JSON body (status ${response.status}), got: ${text.slice(0, 300)}`);
  }
}

/** Asserts an error answer by what a client sees: the status and the exact `message`. Returns the body. */
export async function expectError(
  response: Response,
  status: number,
  message: string,
): Promise<{ code?: string; message: string }> {
  const body =
    response instanceof TestResponse
      ? (response.data as { code?: string; message: string } | null)
      : await readJson<{ code?: string; message: string }>(response);
  if (response.status !== status || body?.message !== message) {
    throw new Error(`expected ${status} ${JSON.stringify(message)}, got ${response.status} ${JSON.stringify(body)}`);
  }
  return body;
}
