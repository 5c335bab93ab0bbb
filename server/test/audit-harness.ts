import { randomUUID } from "node:crypto";
import { sql, type Insertable } from "kysely";
import { expect } from "vitest";
import type { AuditEntry, AuditLogPage } from "../../common/audit.schemas";
import type { AuditEventTable } from "../db/schema";
import { createVerifiedUser, type TestUser } from "./factories";
import type { TestResponse } from "./request";
import { createTestApp, type TestApp } from "./test-database";

/**
 * The audit log tests' harness: one app on a real port (billing needs the sandbox) per test file, started by
 * `startAuditServer` in the file's `beforeAll`, a platform admin who reads the whole log for the assertions, and
 * the helpers that read, write and compare entries through that app.
 */

let server: TestApp;
/** A platform admin (role set in the database): reads the whole log for the assertions. */
let platformAdmin: TestUser;

export const AGENT = "AuditTest/1.0 (integration; +https://example.test)";
export const withAgent = { headers: { "user-agent": AGENT } };
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const CSV_HEADER =
  "time,action,actor_id,actor,impersonator_id,impersonator,target_type,target_id,target,organization_id,organization,ip_address,user_agent,reason,details,actor_type";

/** Starts the file's app and its platform admin; the helpers below use them. */
export async function startAuditServer(): Promise<{ server: TestApp; platformAdmin: TestUser }> {
  server = await createTestApp({ listen: true });
  platformAdmin = await makePlatformAdmin("platform-admin");
  return { server, platformAdmin };
}

export async function stopAuditServer(): Promise<void> {
  await server?.close();
}

export async function makePlatformAdmin(label: string): Promise<TestUser> {
  const user = await createVerifiedUser(server, { label });
  await server.db.updateTable("user").set({ role: "admin" }).where("id", "=", user.id).execute();
  return user;
}

/** The whole log's entries matching `query`, newest first, as a platform admin reads them. */
export async function findEntries(query: Record<string, string>): Promise<AuditEntry[]> {
  const response = await platformAdmin.client.get(
    `/api/admin/audit-log?${new URLSearchParams({ limit: "100", ...query })}`,
  );
  expect(response.status).toBe(200);
  return (response.data as AuditLogPage).entries;
}

/** The one entry matching `query`. */
export async function onlyEntry(query: Record<string, string>): Promise<AuditEntry> {
  const entries = await findEntries(query);
  expect(entries, JSON.stringify(query)).toHaveLength(1);
  return entries[0] as AuditEntry;
}

export const actorOf = (user: TestUser) => ({ type: "user" as const, id: user.id, label: user.email });
/** Where a request of this user's browser came from, as the app resolved it: its socket address and the agent sent. */
export const sentBy = (user: TestUser) => ({ ipAddress: user.client.ip, userAgent: AGENT });

/** An entry as the API answers it: every field given, the rest empty. */
export function entry(fields: Pick<AuditEntry, "action" | "actor"> & Partial<AuditEntry>) {
  return {
    id: expect.any(String),
    createdAt: expect.stringMatching(ISO_INSTANT),
    impersonator: null,
    target: null,
    organization: null,
    ipAddress: null,
    userAgent: null,
    reason: null,
    details: null,
    ...fields,
  };
}

export function ok(response: TestResponse): TestResponse {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status} ${JSON.stringify(response.data)}`);
  return response;
}

/** A row of the log written directly, for dates, paging and exports the API cannot produce on demand. */
export function auditRow(fields: Partial<Insertable<AuditEventTable>>): Insertable<AuditEventTable> {
  return {
    id: randomUUID(),
    created_at: new Date().toISOString(),
    action: "user.created",
    actor_type: "user",
    actor_id: null,
    actor_label: "seed",
    impersonator_id: null,
    impersonator_label: null,
    target_type: null,
    target_id: null,
    target_label: null,
    organization_id: null,
    organization_name: null,
    ip_address: null,
    user_agent: null,
    reason: null,
    details: null,
    ...fields,
  };
}

export async function countRows(where: {
  action?: string;
  actorId?: string;
  organizationId?: string;
}): Promise<number> {
  let query = server.db.selectFrom("audit_event").select((eb) => eb.fn.countAll<number | string>().as("count"));
  if (where.action) query = query.where("action", "=", where.action);
  if (where.actorId) query = query.where("actor_id", "=", where.actorId);
  if (where.organizationId) query = query.where("organization_id", "=", where.organizationId);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/**
 * Runs `run` while the database refuses inserts into `table` where `column` = `value` (a trigger, as a constraint
 * or an outage would), and removes the trigger afterwards, whatever happened.
 */
export async function withRefusedInserts<T>(
  table: "member" | "audit_event",
  column: string,
  value: string,
  run: () => Promise<T>,
): Promise<T> {
  const trigger = `audit_test_refuse_${table}`;
  if (server.dialect === "postgres") {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION ${trigger}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '% insert refused for the test', TG_TABLE_NAME; END; $$ LANGUAGE plpgsql`,
      )
      .execute(server.db);
    await sql
      .raw(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON "${table}" FOR EACH ROW WHEN (NEW."${column}" = '${value}') EXECUTE FUNCTION ${trigger}()`,
      )
      .execute(server.db);
  } else {
    await sql
      .raw(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON "${table}" WHEN NEW."${column}" = '${value}' BEGIN SELECT RAISE(ABORT, '${table} insert refused for the test'); END`,
      )
      .execute(server.db);
  }
  try {
    return await run();
  } finally {
    await sql
      .raw(
        server.dialect === "postgres"
          ? `DROP TRIGGER IF EXISTS ${trigger} ON "${table}"`
          : `DROP TRIGGER IF EXISTS ${trigger}`,
      )
      .execute(server.db);
  }
}

/** A minimal RFC 4180 reader: fields, quoted fields with doubled quotes and line breaks, CRLF between records. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      index += 1;
    } else field += char;
  }
  if (field !== "" || record.length > 0) records.push([...record, field]);
  return records;
}

/** The day the server names a download after, checked around the request so midnight cannot flake it. */
export async function expectCsvDownload(request: () => Promise<TestResponse>, name: string): Promise<string> {
  const dayBefore = new Date().toISOString().slice(0, 10);
  const response = await request();
  const dayAfter = new Date().toISOString().slice(0, 10);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect([dayBefore, dayAfter].map((day) => `attachment; filename="${name}-audit-log-${day}.csv"`)).toContain(
    response.headers.get("content-disposition"),
  );
  return typeof response.data === "string" ? response.data : await response.text();
}
