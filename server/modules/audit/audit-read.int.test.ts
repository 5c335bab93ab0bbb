import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, type AuditLogPage } from "../../../common/audit.schemas";
import { auditRow, CSV_HEADER, expectCsvDownload, findEntries } from "../../test/audit-harness";
import { ok, parseCsv, startAuditServer, stopAuditServer } from "../../test/audit-harness";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The audit log through the HTTP API: who may read which entries, the filters, paging and the CSV export.
 * One app on a real port serves every test of the file.
 */

let server: TestApp;
/** A platform admin (role set in the database): reads the whole log for the assertions. */
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});

afterAll(stopAuditServer);

describe("who reads which entries", () => {
  let owner: TestUser;
  let orgAdmin: TestUser;
  let member: TestUser;
  let otherOwner: TestUser;
  let organizationId: string;
  let otherOrganizationId: string;

  beforeAll(async () => {
    [owner, orgAdmin, member, otherOwner] = await Promise.all([
      createVerifiedUser(server, { label: "read-owner" }),
      createVerifiedUser(server, { label: "read-admin" }),
      createVerifiedUser(server, { label: "read-member" }),
      createVerifiedUser(server, { label: "read-other" }),
    ]);
    organizationId = (await createOrganizationWithOwner(owner, "Readable")).id;
    otherOrganizationId = (await createOrganizationWithOwner(otherOwner, "Other readable")).id;
    await addMember(owner, organizationId, orgAdmin, "admin");
    await addMember(owner, organizationId, member, "member");
    // The other organization's admin is an admin here too: the organization in the path decides, never the query.
    await addMember(otherOwner, otherOrganizationId, orgAdmin, "admin");
  });

  it("an organization admin sees that organization's entries only, whatever organizationId the query names", async () => {
    const all = await findEntries({ organizationId });
    expect(all.length).toBeGreaterThanOrEqual(7);
    for (const path of [
      `/api/organizations/${organizationId}/audit-log`,
      `/api/organizations/${organizationId}/audit-log?organizationId=${otherOrganizationId}`,
    ]) {
      const page = (await orgAdmin.client.get(path)).data as AuditLogPage;
      expect(page).toMatchObject({ total: all.length, limit: 25, offset: 0 });
      expect(page.entries).toEqual(all);
    }
    const filtered = ok(
      await orgAdmin.client.get(`/api/organizations/${organizationId}/audit-log?action=member.added&limit=10`),
    ).data as AuditLogPage;
    expect(filtered.total).toBe(2);
    expect(filtered.entries.map((found) => found.target?.label).sort()).toEqual([orgAdmin.email, member.email].sort());
    expect(ok(await owner.client.get(`/api/organizations/${organizationId}/audit-log`)).data.total).toBe(all.length);
  });

  it("an admin of another organization, a member and an anonymous caller are refused", async () => {
    await expectError(
      await otherOwner.client.get(`/api/organizations/${organizationId}/audit-log`),
      403,
      "user is not a member of the organization",
    );
    await expectError(
      await otherOwner.client.get(`/api/organizations/${organizationId}/audit-log/export`),
      403,
      "user is not a member of the organization",
    );
    await expectError(
      await member.client.get(`/api/organizations/${organizationId}/audit-log`),
      403,
      "You are not allowed to access resource: auditLog",
    );
    await expectError(
      await member.client.get(`/api/organizations/${organizationId}/audit-log/export`),
      403,
      "You are not allowed to access resource: auditLog",
    );
    await expectError(
      await createClient(server).get(`/api/organizations/${organizationId}/audit-log`),
      401,
      "Unauthorized",
    );
    // The platform's view is for platform admins only.
    await expectError(
      await owner.client.get("/api/admin/audit-log"),
      403,
      "You are not allowed to access resource: auditLog",
    );
    await expectError(
      await owner.client.get("/api/admin/audit-log/export"),
      403,
      "You are not allowed to access resource: auditLog",
    );
    await expectError(await createClient(server).get("/api/admin/audit-log"), 401, "Unauthorized");
  });

  it("a platform admin filters the whole log by action, actor, target and organization", async () => {
    const all = await findEntries({ organizationId });
    expect(all.every((found) => found.organization?.id === organizationId)).toBe(true);
    const added = await findEntries({ organizationId, action: "member.added" });
    expect(added.map((found) => found.actor.id).sort()).toEqual([orgAdmin.id, member.id].sort());
    const byAdmin = await findEntries({ actorId: orgAdmin.id });
    expect(byAdmin.map((found) => `${found.action} ${found.organization?.id}`).sort()).toEqual(
      [
        `invitation.accepted ${organizationId}`,
        `invitation.accepted ${otherOrganizationId}`,
        `member.added ${organizationId}`,
        `member.added ${otherOrganizationId}`,
      ].sort(),
    );
    const invitationId = added.find((found) => found.actor.id === member.id)?.details?.invitationId as string;
    expect((await findEntries({ targetId: invitationId })).map((found) => found.action).sort()).toEqual([
      "invitation.accepted",
      "invitation.sent",
    ]);
    expect((await findEntries({ targetId: member.id, organizationId })).map((found) => found.action)).toEqual([
      "member.added",
    ]);
    expect(await findEntries({ organizationId, actorId: member.id, action: "invitation.sent" })).toEqual([]);
  });

  it("days filter from and to, both included (UTC); pages come newest first with the total", async () => {
    const organization = `dated-${randomUUID()}`;
    const at = (instant: string) =>
      auditRow({ created_at: instant, organization_id: organization, target_type: "user", target_id: instant });
    const instants = [
      "2001-02-28T23:59:59.999Z",
      "2001-03-01T00:00:00.000Z",
      "2001-03-01T12:00:00.000Z",
      "2001-03-02T23:59:59.999Z",
      "2001-03-03T00:00:00.000Z",
    ];
    await server.db.insertInto("audit_event").values(instants.map(at)).execute();
    const targets = async (query: Record<string, string>) =>
      (await findEntries({ organizationId: organization, ...query })).map((found) => found.target?.id);
    expect(await targets({ from: "2001-03-01", to: "2001-03-02" })).toEqual([
      "2001-03-02T23:59:59.999Z",
      "2001-03-01T12:00:00.000Z",
      "2001-03-01T00:00:00.000Z",
    ]);
    expect(await targets({ from: "2001-03-01", to: "2001-03-01" })).toEqual([
      "2001-03-01T12:00:00.000Z",
      "2001-03-01T00:00:00.000Z",
    ]);
    expect(await targets({ from: "2001-03-02" })).toEqual(["2001-03-03T00:00:00.000Z", "2001-03-02T23:59:59.999Z"]);
    expect(await targets({ to: "2001-02-28" })).toEqual(["2001-02-28T23:59:59.999Z"]);
    expect(await targets({ from: "2001-03-04" })).toEqual([]);

    const paged = `paged-${randomUUID()}`;
    const rows = Array.from({ length: 12 }, (_, index) =>
      auditRow({
        created_at: new Date(Date.UTC(2002, 0, 1, 0, index)).toISOString(),
        organization_id: paged,
        target_type: "user",
        target_id: `entry-${index}`,
      }),
    );
    await server.db.insertInto("audit_event").values(rows).execute();
    const page = async (query: string) =>
      ok(await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${paged}&${query}`)).data as AuditLogPage;
    const first = await page("limit=10&offset=0");
    expect(first).toMatchObject({ total: 12, limit: 10, offset: 0 });
    expect(first.entries.map((found) => found.target?.id)).toEqual(
      Array.from({ length: 10 }, (_, index) => `entry-${11 - index}`),
    );
    const second = await page("limit=10&offset=10");
    expect(second).toMatchObject({ total: 12, limit: 10, offset: 10 });
    expect(second.entries.map((found) => found.target?.id)).toEqual(["entry-1", "entry-0"]);
    expect(await page("limit=10&offset=20")).toEqual({ entries: [], total: 12, limit: 10, offset: 20 });
    expect((await page("")).limit).toBe(25);
  });

  it("refuses a bad query with 400", async () => {
    const bad = async (query: string) => platformAdmin.client.get(`/api/admin/audit-log?${query}`);
    await expectError(await bad("limit=7"), 400, "limit: Use a page size of 10, 25, 50, 100");
    await expectError(await bad("from=2024-02-30x"), 400, "from: Use a date as YYYY-MM-DD; from: Use a real date");
    await expectError(await bad("from=2024-13-45"), 400, "from: Use a real date");
    await expectError(
      await bad("from=2024-05-02&to=2024-05-01"),
      400,
      "to: The start date must be on or before the end date",
    );
    await expectError(
      await bad("action=user.exploded"),
      400,
      `action: Invalid option: expected one of ${AUDIT_ACTIONS.map((action) => `"${action}"`).join("|")}`,
    );
    await expectError(await bad("offset=-1"), 400, "offset: Too small: expected number to be >=0");
    await expectError(await bad(`actorId=${"a".repeat(1000)}`), 400, "actorId: Use at most 255 characters");
    await expectError(
      await owner.client.get(`/api/organizations/${organizationId}/audit-log?limit=7`),
      400,
      "limit: Use a page size of 10, 25, 50, 100",
    );
    await expectError(
      await platformAdmin.client.get("/api/admin/audit-log/export?to=someday"),
      400,
      "to: Use a date as YYYY-MM-DD; to: Use a real date",
    );
  });

  it("refuses a day that does not exist (29 February of a common year, 31 April) with 400, on the list and the export", async () => {
    // Narrowed to an organization without entries, so a wrong answer reads short.
    const none = `none-${randomUUID()}`;
    await expectError(
      await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${none}&from=2023-02-29`),
      400,
      "from: Use a real date",
    );
    await expectError(
      await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${none}&to=2024-04-31`),
      400,
      "to: Use a real date",
    );
    await expectError(
      await owner.client.get(`/api/organizations/${organizationId}/audit-log?from=2023-02-29`),
      400,
      "from: Use a real date",
    );
    await expectError(
      await platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${none}&from=2023-02-29`),
      400,
      "from: Use a real date",
    );
  });

  it("to=9998-12-31, the last day the filter accepts, includes every entry up to now, on the list and the export; a later one is refused", async () => {
    const organization = `far-${randomUUID()}`;
    const rows = ["2001-01-01T00:00:00.000Z", new Date().toISOString()].map((instant) =>
      auditRow({ created_at: instant, organization_id: organization, target_type: "user", target_id: instant }),
    );
    await server.db.insertInto("audit_event").values(rows).execute();
    await expectError(
      await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${organization}&to=9999-12-31`),
      400,
      "to: Use a real date",
    );
    const listed = await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${organization}&to=9998-12-31`);
    expect(listed.status, JSON.stringify(listed.data)).toBe(200);
    expect((listed.data as AuditLogPage).entries.map((found) => found.target?.id)).toEqual([
      rows[1]?.target_id,
      rows[0]?.target_id,
    ]);
    const exported = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&to=9998-12-31`),
      "atrium",
    );
    expect(parseCsv(exported).map((record) => record[7])).toEqual([
      "target_id",
      rows[1]?.target_id,
      rows[0]?.target_id,
    ]);
  });

  it("exports CSV: the header, one line per entry newest first, the filters, quoting, and formula-looking values defused", async () => {
    const organization = `export-${randomUUID()}`;
    const rows = [
      auditRow({
        created_at: "2003-01-01T10:00:00.000Z",
        action: "organization.updated",
        actor_type: "api_key",
        actor_id: "actor-1",
        actor_label: 'Smith, "Jo"',
        target_type: "organization",
        target_id: organization,
        target_label: "two\nlines",
        organization_id: organization,
        organization_name: "=SUM(A1:A2)",
        ip_address: "198.18.0.1",
        user_agent: "-rf",
        reason: "+1 555",
        details: JSON.stringify({ note: "a,b" }),
      }),
      auditRow({
        created_at: "2003-01-01T11:00:00.000Z",
        action: "team.created",
        actor_id: "actor-2",
        actor_label: "plain@example.test",
        impersonator_id: "admin-1",
        impersonator_label: "@admin",
        target_type: "team",
        target_id: "team-1",
        target_label: "=1,2",
        organization_id: organization,
        organization_name: "\tTabbed",
      }),
      auditRow({
        created_at: "2003-01-01T09:00:00.000Z",
        action: "user.created",
        actor_type: "command_line",
        actor_label: "command line",
        organization_id: organization,
      }),
    ];
    await server.db.insertInto("audit_event").values(rows).execute();

    const text = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}`),
      "atrium",
    );
    expect(text).toBe(
      [
        CSV_HEADER,
        `2003-01-01T11:00:00.000Z,team.created,actor-2,plain@example.test,admin-1,'@admin,team,team-1,"'=1,2",${organization},'\tTabbed,,,,,user`,
        `2003-01-01T10:00:00.000Z,organization.updated,actor-1,"Smith, ""Jo""",,,organization,${organization},"two\nlines",${organization},'=SUM(A1:A2),198.18.0.1,'-rf,'+1 555,"{""note"":""a,b""}",api_key`,
        `2003-01-01T09:00:00.000Z,user.created,,command line,,,,,,${organization},,,,,,command_line`,
        "",
      ].join("\r\n"),
    );
    expect(parseCsv(text)[2]?.[8]).toBe("two\nlines");

    const filtered = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&action=team.created`),
      "atrium",
    );
    expect(parseCsv(filtered).map((record) => record[1])).toEqual(["action", "team.created"]);
    const dated = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&from=2003-01-02`),
      "atrium",
    );
    expect(dated).toBe(`${CSV_HEADER}\r\n`);
    // Paging does not narrow an export.
    const unpaged = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&limit=10&offset=2`),
      "atrium",
    );
    expect(parseCsv(unpaged)).toHaveLength(4);
  });

  it("the organization's export holds only its own entries, newest first, even when the query names another organization", async () => {
    const expected = await findEntries({ organizationId });
    for (const path of [
      `/api/organizations/${organizationId}/audit-log/export`,
      `/api/organizations/${organizationId}/audit-log/export?organizationId=${otherOrganizationId}`,
    ]) {
      const records = parseCsv(await expectCsvDownload(() => orgAdmin.client.get(path), "organization"));
      expect(records[0]?.join(",")).toBe(CSV_HEADER);
      const lines = records.slice(1);
      expect(lines.map((record) => [record[0], record[1], record[9]])).toEqual(
        expected.map((found) => [found.createdAt, found.action, organizationId]),
      );
      expect(lines.map((record) => record[3])).toEqual(expected.map((found) => found.actor.label));
    }
  });
});
