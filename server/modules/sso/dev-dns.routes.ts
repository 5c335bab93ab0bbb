import { Hono } from "hono";
import { devDnsRecordSchema } from "./sso.schemas";
import { dnsPage, type DnsRecordForm } from "./dev-dns.pages";
import type { DevDnsServer } from "./dev-dns.server";

const EMPTY_FORM: DnsRecordForm = { values: {}, errors: {} };

/**
 * The development DNS server's console at `basePath` (/dev/dns): the page, publishing a record, removing one. Forms
 * post back and redirect (303) to the page; a bad form answers the page again with its errors (400).
 */
export function devDnsRoutes(deps: { devDns: DevDnsServer; basePath: string }) {
  const { devDns, basePath } = deps;
  const page = (form: DnsRecordForm) =>
    dnsPage({ basePath, address: devDns.address, records: devDns.records.list(), form });
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return new Hono()
    .use("*", async (c, next) => {
      await next();
      c.header("Cache-Control", "no-store");
    })
    .get("/", (c) => c.html(page(EMPTY_FORM)))
    .post("/records", async (c) => {
      const body = await c.req.parseBody();
      const parsed = devDnsRecordSchema.safeParse(body);
      if (!parsed.success) {
        const errors: DnsRecordForm["errors"] = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path[0];
          if ((key === "name" || key === "value") && !errors[key]) errors[key] = issue.message;
        }
        return c.html(page({ values: { name: text(body.name), value: text(body.value) }, errors }), 400);
      }
      devDns.records.publish(parsed.data.name, parsed.data.value);
      return c.redirect(basePath, 303);
    })
    .post("/records/remove", async (c) => {
      const parsed = devDnsRecordSchema.safeParse(await c.req.parseBody());
      if (parsed.success) devDns.records.remove(parsed.data.name, parsed.data.value);
      return c.redirect(basePath, 303);
    });
}
