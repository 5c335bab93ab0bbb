import { createSocket } from "node:dgram";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";
import { createTxtLookup } from "./sso.dns";

describe("the development DNS server and its page /dev/dns", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ env: { DEV_DNS_SERVER: "true" } });
  });
  afterAll(async () => {
    await app.close();
  });

  const form = (path: string, fields: Record<string, string>) =>
    createClient(app).request(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      contentType: "application/x-www-form-urlencoded",
    });

  it("publishes a TXT record from its page and answers it over real DNS, then removes it", async () => {
    const devDns = app.services.devDns!;
    expect(devDns.address).toMatch(/^127\.0\.0\.1:\d+$/);
    const lookup = createTxtLookup([devDns.address]);
    const name = "_atrium-sso-acme.Example.test.";
    const value = `atrium-sso=${"t".repeat(300)}`;

    const page = await createClient(app).get("/dev/dns");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.data).toContain("For development only.");
    expect(page.data).toContain(devDns.address);
    expect(page.data).toContain("No records yet.");

    const published = await form("/dev/dns/records", { name, value });
    expect(published.status).toBe(303);
    expect(published.headers.get("location")).toBe("/dev/dns");
    // Names without case or trailing dot; a value over 255 bytes travels as several strings, joined again.
    expect(await lookup("_atrium-sso-acme.example.test")).toEqual([value]);
    expect(await lookup("_ATRIUM-SSO-ACME.EXAMPLE.TEST")).toEqual([value]);
    expect(await lookup("nothing-here.example.test")).toEqual([]);
    expect((await createClient(app).get("/dev/dns")).data).toContain("_atrium-sso-acme.example.test");

    expect((await form("/dev/dns/records/remove", { name, value })).status).toBe(303);
    expect(await lookup("_atrium-sso-acme.example.test")).toEqual([]);
  });

  it("answers a bad form with its errors and publishes nothing", async () => {
    const refused = await form("/dev/dns/records", { name: "not a name!", value: "" });
    expect(refused.status).toBe(400);
    expect(refused.data).toContain("Enter a DNS name such as _atrium-sso-acme.example.com");
    expect(refused.data).toContain("Enter the record&#39;s value");
    expect(refused.data).toContain('value="not a name!"');
    expect(app.services.devDns!.records.list()).toEqual([]);
  });

  it("answers a malformed packet with FORMERR and keeps serving", async () => {
    const devDns = app.services.devDns!;
    const [host, port] = devDns.address.split(":") as [string, string];
    const socket = createSocket("udp4");
    try {
      socket.send(
        Buffer.from([0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0]),
        Number(port),
        host,
      );
      const [answer] = (await once(socket, "message")) as [Buffer];
      expect(answer.readUInt16BE(0)).toBe(0x1234);
      expect(answer.readUInt16BE(2) & 0x800f).toBe(0x8001);
    } finally {
      socket.close();
    }
    devDns.records.publish("still.example.test", "up");
    expect(await createTxtLookup([devDns.address])("still.example.test")).toEqual(["up"]);
  });

  it("is not served when off (production's default)", async () => {
    const off = await createTestApp();
    try {
      expect(off.services.devDns).toBeUndefined();
      expect((await createClient(off).get("/dev/dns")).status).not.toBe(200);
    } finally {
      await off.close();
    }
  });
});
