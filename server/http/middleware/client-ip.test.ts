import { describe, expect, test } from "vitest";
import { CLIENT_IP_HEADER, createClientIpResolver, withClientIpHeader } from "./client-ip";

function resolveClientIp(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: string[],
) {
  return createClientIpResolver(trustedProxies).resolve(socketAddress, forwardedFor);
}

describe("resolveClientIp", () => {
  test("without trusted proxies the socket address is the client, whatever X-Forwarded-For says", () => {
    expect(resolveClientIp("203.0.113.7", "198.51.100.1", [])).toBe("203.0.113.7");
    expect(resolveClientIp("203.0.113.7", undefined, [])).toBe("203.0.113.7");
  });

  test("a socket that is not a trusted proxy is the client even when proxies are configured", () => {
    expect(resolveClientIp("203.0.113.7", "198.51.100.1", ["10.0.0.1"])).toBe("203.0.113.7");
  });

  test("behind a trusted proxy the forwarded client is believed", () => {
    expect(resolveClientIp("10.0.0.1", "198.51.100.1", ["10.0.0.1"])).toBe("198.51.100.1");
  });

  test("the chain is walked from the right: a client cannot choose its address by prepending one", () => {
    expect(resolveClientIp("10.0.0.1", "1.1.1.1, 198.51.100.1", ["10.0.0.1"])).toBe("198.51.100.1");
  });

  test("several trusted proxies are skipped", () => {
    expect(resolveClientIp("10.0.0.1", "1.1.1.1, 198.51.100.1, 10.0.0.2", ["10.0.0.1", "10.0.0.2"])).toBe(
      "198.51.100.1",
    );
  });

  test("a chain of only trusted proxies resolves to the leftmost of them", () => {
    expect(resolveClientIp("10.0.0.1", "10.0.0.2", ["10.0.0.1", "10.0.0.2"])).toBe("10.0.0.2");
  });

  test("a trusted proxy without X-Forwarded-For is the client", () => {
    expect(resolveClientIp("10.0.0.1", undefined, ["10.0.0.1"])).toBe("10.0.0.1");
    expect(resolveClientIp("10.0.0.1", "", ["10.0.0.1"])).toBe("10.0.0.1");
  });

  test("entries that are not addresses are ignored", () => {
    expect(resolveClientIp("10.0.0.1", "198.51.100.1, not-an-ip", ["10.0.0.1"])).toBe("198.51.100.1");
  });

  test("IPv4-mapped IPv6 addresses are normalised on the socket, in the chain and in the proxy list", () => {
    expect(resolveClientIp("::ffff:203.0.113.7", undefined, [])).toBe("203.0.113.7");
    expect(resolveClientIp("::ffff:10.0.0.1", "::ffff:198.51.100.1", ["10.0.0.1"])).toBe("198.51.100.1");
    expect(resolveClientIp("10.0.0.1", "198.51.100.1", ["::ffff:10.0.0.1"])).toBe("198.51.100.1");
  });

  test("IPv6 clients are kept as they are", () => {
    expect(resolveClientIp("2001:db8::1", "198.51.100.1", [])).toBe("2001:db8::1");
    expect(resolveClientIp("10.0.0.1", "2001:db8::5", ["10.0.0.1"])).toBe("2001:db8::5");
  });

  test("trusted proxies may be CIDR ranges (IPv4 and IPv6) or named ranges", () => {
    expect(resolveClientIp("10.1.2.3", "198.51.100.1, 10.9.9.9", ["10.0.0.0/8"])).toBe("198.51.100.1");
    expect(resolveClientIp("11.0.0.1", "198.51.100.1", ["10.0.0.0/8"])).toBe("11.0.0.1");
    expect(resolveClientIp("fd00::7", "2001:db8::5", ["fd00::/8"])).toBe("2001:db8::5");
    expect(resolveClientIp("127.0.0.1", "198.51.100.1", ["loopback"])).toBe("198.51.100.1");
    expect(resolveClientIp("::ffff:172.16.5.4", "198.51.100.1", ["172.16.0.0/12"])).toBe("198.51.100.1");
  });

  test("no socket address gives no client address", () => {
    expect(resolveClientIp(undefined, "198.51.100.1", ["10.0.0.1"])).toBeUndefined();
  });
});

describe("withClientIpHeader", () => {
  test("replaces a client-sent copy of the header with the resolved address", () => {
    const request = new Request("http://localhost/api/auth/get-session", {
      headers: { [CLIENT_IP_HEADER]: "6.6.6.6", cookie: "a=b" },
    });
    const copy = withClientIpHeader(request, "203.0.113.7");
    expect(copy.headers.get(CLIENT_IP_HEADER)).toBe("203.0.113.7");
    expect(copy.headers.get("cookie")).toBe("a=b");
  });

  test("drops a client-sent copy when no address is known", () => {
    const request = new Request("http://localhost/api/auth/get-session", {
      headers: { [CLIENT_IP_HEADER]: "6.6.6.6" },
    });
    expect(withClientIpHeader(request, undefined).headers.has(CLIENT_IP_HEADER)).toBe(false);
  });

  test("keeps the method and the body", async () => {
    const request = new Request("http://localhost/api/auth/sign-in/email", {
      method: "POST",
      body: '{"a":1}',
      headers: { "content-type": "application/json" },
    });
    const copy = withClientIpHeader(request, "203.0.113.7");
    expect(copy.method).toBe("POST");
    expect(await copy.text()).toBe('{"a":1}');
  });
});
