import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createPolar } from "@polar-sh/sdk/2026-10";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBillingSandbox, type BillingSandbox } from "./index";
import { expectSchema } from "./test/openapi-validator";

/** The sandbox mounted under a prefix of a strict parent app, the way the main app mounts it. */
let sandbox: BillingSandbox;
let server: ReturnType<typeof serve>;
let baseUrl = "";

beforeAll(async () => {
  const parent = new Hono();
  let port = 0;
  await new Promise<void>((resolve) => {
    server = serve(
      { fetch: (request) => parent.fetch(request), port: 0, hostname: "127.0.0.1" },
      (info: AddressInfo) => {
        port = info.port;
        resolve();
      },
    );
  });
  baseUrl = `http://127.0.0.1:${port}/sandbox/polar`;
  sandbox = createBillingSandbox({ dataFile: ":memory:", publicUrl: baseUrl });
  parent.mount("/sandbox/polar", sandbox.app.fetch);
});
afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("mounted under /sandbox/polar", () => {
  it("serves the SDK with baseUrl at the mount point, checkout urls under it, and the pages", async () => {
    const polar = createPolar({ accessToken: "anything", baseUrl });
    const products = await polar.products.list({});
    expect(products.items.length).toBe(5);
    const checkout = await polar.checkouts.create({ products: [products.items[0]?.id as string] });
    expectSchema("Checkout", checkout);
    expect(checkout.url).toBe(`${baseUrl}/checkout/${checkout.client_secret}`);
    expect((await fetch(checkout.url)).status).toBe(200);
    expect((await fetch(`${baseUrl}/assets/checkout-page/checkout.js`)).headers.get("content-type")).toContain(
      "text/javascript",
    );
    const root = await fetch(baseUrl, { redirect: "manual" });
    expect([root.status, root.headers.get("location")]).toEqual([302, `${baseUrl}/dashboard`]);
    expect(
      await (await fetch(`${baseUrl}/v1/nothing-here`, { headers: { authorization: "Bearer x" } })).json(),
    ).toEqual({
      error: "ResourceNotFound",
      detail: "Not found",
    });
  });
});
