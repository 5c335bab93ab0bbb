import { Hono, type Context } from "hono";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import type { GetSession, SessionEnv } from "../../http/app-env";
import { requirePlatformPermission } from "../../http/middleware/platform-access";
import { validate } from "../../http/validate";
import { auditLogQuerySchema, type AuditLogPage, type AuditLogQuery } from "./audit.schemas";
import { exportAuditLog, listAuditLog } from "./audit.service";

/** A CSV export as a download named after what it holds and the day. */
export function auditCsvResponse(c: Context, body: ReadableStream<Uint8Array>, name: string): Response {
  const day = new Date().toISOString().slice(0, 10);
  return c.body(body, 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${name}-audit-log-${day}.csv"`,
    "cache-control": "no-store",
  });
}

export const withoutPaging = ({ limit: _limit, offset: _offset, ...filters }: AuditLogQuery) => filters;

/** The whole log for platform admins, mounted at /api/admin/audit-log: filtered pages and a CSV export of the same filters. */
export function adminAuditRoutes(deps: {
  getSession: GetSession;
  adminUserIds: readonly string[];
  db: Kysely<Database>;
}) {
  return new Hono<SessionEnv>()
    .use("*", requirePlatformPermission(deps, { auditLog: ["list"] }))
    .get("/", validate("query", auditLogQuerySchema), async (c) =>
      c.json((await listAuditLog(deps.db, c.req.valid("query"))) satisfies AuditLogPage),
    )
    .get("/export", validate("query", auditLogQuerySchema), async (c) =>
      auditCsvResponse(c, await exportAuditLog(deps.db, withoutPaging(c.req.valid("query"))), "atrium"),
    );
}

export type AdminAuditRoutes = ReturnType<typeof adminAuditRoutes>;
