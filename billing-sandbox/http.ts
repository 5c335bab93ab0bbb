import type { Context } from "hono";
import { Hono } from "hono";
import type { CustomerRecord } from "./records";

/** Routers accept `/v1/products` and `/v1/products/` alike, as the provider does. */
export type SandboxEnv = { Variables: { customer: CustomerRecord } };
export const newRouter = () => new Hono<SandboxEnv>({ strict: false });

/** `ListResource`: page/limit pagination with the provider's defaults (page 1, limit 10). */
export function paginate<T, R>(c: Context, items: T[], serialize: (item: T) => R) {
  const page = Math.max(1, Number(c.req.query("page") ?? "1") || 1);
  const limit = Math.min(100, Math.max(1, Number(c.req.query("limit") ?? "10") || 10));
  const sorting = c.req.queries("sorting") ?? ["-created_at"];
  const ordered = sorting.includes("created_at") ? items : [...items].reverse();
  return {
    items: ordered.slice((page - 1) * limit, page * limit).map(serialize),
    pagination: { total_count: items.length, max_page: Math.ceil(items.length / limit) },
  };
}

/** A query filter that may repeat (`?product_id=a&product_id=b`); undefined when absent. */
export function queryList(c: Context, key: string): string[] | undefined {
  const values = c.req.queries(key);
  return values && values.length > 0 ? values : undefined;
}

/** Metadata filters arrive deepObject-style: `metadata[key]=value`. */
export function metadataQuery(c: Context): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const [name, value] of new URL(c.req.url).searchParams) {
    const match = /^metadata\[(.+)\]$/.exec(name);
    if (match?.[1]) (filters[match[1]] ??= []).push(value);
  }
  return filters;
}

export function matchesMetadata(metadata: Record<string, unknown>, filters: Record<string, string[]>): boolean {
  return Object.entries(filters).every(([key, values]) => values.includes(String(metadata[key])));
}

export function booleanQuery(c: Context, key: string): boolean | undefined {
  const value = c.req.query(key);
  return value === undefined ? undefined : value === "true" || value === "1";
}
