import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createOrganizationWithOwner,
  createVerifiedUser,
  uniqueSlug,
  waitFor,
  type MailTarget,
  type TestUser,
} from "../../test/factories";
import { expectError } from "../../test/request";
import { startServerProcess, type ServerProcess } from "../../test/server-process";
import { createTestDatabase, type TestDatabase } from "../../test/test-database";

/**
 * A server SIGKILLed in the middle of creating an organization and of accepting an invitation leaves no half of
 * either: each writes everything inside one transaction (organization, owner member, default team and its
 * membership, the session's active organization, the audit entry; invitation status, member, audit entries),
 * and PostgreSQL rolls back a transaction whose client is gone. The operation is stopped inside its transaction
 * from outside: a second connection holds a SHARE lock on a table it writes after its first write (reads go on,
 * writes wait), the test waits until the server's backend waits on that lock with a write already made, and
 * kills the server. Then another server on the same database does the operation again, once.
 */

let database: TestDatabase;
let admin: pg.Client;
let server: ServerProcess;
let owner: TestUser;
let joiner: TestUser;
let port: number;

/** The server in the child process as the test clients and factories reach it: over HTTP, mail from its dev mailbox. */
const target: MailTarget = {
  app: { request: (url, init) => fetch(url, { ...init, redirect: "manual" }) },
  config: { baseUrl: "" },
  // The server's own outbox worker delivers the mail; the factories poll its dev mailbox.
  services: { worker: { drain: async () => undefined } },
};

async function startServer(name: string): Promise<ServerProcess> {
  const started = await startServerProcess({
    name,
    env: { DATABASE_URL: database.url, DATA_DIR: database.dataDir },
    ...(port ? { port } : {}),
  });
  // Every server of the test answers at the same address, so the clients' cookies and origin stay valid.
  port = started.port;
  target.config.baseUrl = started.url;
  return started;
}

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.dialect !== "postgres")
    throw new Error("the kill tests need PostgreSQL: set TEST_DATABASE_URL=postgres://…");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  server = await startServer("A");
  owner = await createVerifiedUser(target, { label: "owner" });
  joiner = await createVerifiedUser(target, { label: "joiner" });
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await admin?.end();
  await database?.drop();
});

async function count(sql: string, values: unknown[]): Promise<number> {
  const { rows } = await admin.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${sql}`, values);
  return rows[0]?.count ?? -1;
}

/**
 * Sends `request` to the running server and SIGKILLs the server while the request waits to write `table`;
 * then lets the lock go and waits until PostgreSQL has ended the orphaned backend (rolling back what it had
 * not committed). The request itself fails: its server is gone. Answers whether the request was inside an
 * open transaction that had written already (one that is not would have committed its earlier writes).
 */
async function killInside(table: string, request: () => Promise<unknown>): Promise<{ inTransaction: boolean }> {
  const locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
  try {
    await locker.query("BEGIN");
    await locker.query(`LOCK TABLE "${table}" IN SHARE MODE`);
    const answered = request().then(
      () => "answered",
      () => "failed",
    );
    const backend = await waitFor(
      async () => {
        const { rows } = await admin.query<{ pid: number; xid: string | null }>(
          `SELECT activity.pid, activity.backend_xid::text AS xid
             FROM pg_locks AS lock JOIN pg_stat_activity AS activity ON activity.pid = lock.pid
            WHERE lock.relation = $1::regclass AND NOT lock.granted AND activity.datname = current_database()`,
          [`"${table}"`],
        );
        return rows[0];
      },
      { timeoutMs: 20_000, what: `the server's transaction to wait on "${table}"` },
    );
    server.child.kill("SIGKILL");
    expect(await server.exited).toBe("SIGKILL");
    expect(await answered).toBe("failed");
    await locker.query("COMMIT");
    await waitFor(async () => (await count("pg_stat_activity WHERE pid = $1", [backend.pid])) === 0, {
      timeoutMs: 20_000,
      what: "PostgreSQL to end the killed server's backend",
    });
    // A transaction id is assigned at a transaction's first write.
    return { inTransaction: backend.xid !== null };
  } finally {
    await locker.end();
  }
}

describe("SIGKILL in the middle of creating an organization", () => {
  async function organizationState(slug: string) {
    const { rows } = await admin.query<{ id: string }>(`SELECT id FROM "organization" WHERE slug = $1`, [slug]);
    const ids = rows.map((row) => row.id);
    return {
      organizations: ids.length,
      members: await count(`"member" WHERE "organizationId" = ANY($1)`, [ids]),
      teams: await count(`"team" WHERE "organizationId" = ANY($1)`, [ids]),
      teamMembers: await count(
        `"teamMember" JOIN "team" ON "team".id = "teamMember"."teamId" WHERE "team"."organizationId" = ANY($1)`,
        [ids],
      ),
      activeIn: await count(`"session" WHERE "activeOrganizationId" = ANY($1)`, [ids]),
      audit: await count(
        `"audit_event" WHERE "organization_id" = ANY($1) OR ("action" = 'organization.created' AND "details" LIKE $2)`,
        [ids, `%"${slug}"%`],
      ),
      billing: await count(`"billing_customer" WHERE "organization_id" = ANY($1)`, [ids]),
      mails: await count(`"mail_outbox" WHERE "to_address" = $1 AND "subject" NOT LIKE 'Verify%'`, [owner.email]),
    };
  }
  const nothing = {
    organizations: 0,
    members: 0,
    teams: 0,
    teamMembers: 0,
    activeIn: 0,
    audit: 0,
    billing: 0,
    mails: 0,
  };
  const whole = { organizations: 1, members: 1, teams: 1, teamMembers: 1, activeIn: 1, audit: 1, billing: 0, mails: 0 };

  // After the organization row, before its owner; then with everything written but the audit entry.
  for (const table of ["member", "audit_event"]) {
    it(`killed while waiting to write "${table}": nothing of it is left, and a server started again creates it once`, async () => {
      const slug = uniqueSlug("killed");
      const killed = await killInside(table, () =>
        owner.client.post("/api/auth/organization/create", { name: "Killed", slug }),
      );
      expect(await organizationState(slug)).toEqual(nothing);
      expect(killed.inTransaction).toBe(true);

      server = await startServer("restarted");
      const created = await createOrganizationWithOwner(owner, "Killed", slug);
      await expectError(
        await owner.client.post("/api/auth/organization/create", { name: "Killed", slug }),
        400,
        "organization already exists",
      );
      expect(await organizationState(slug)).toEqual(whole);
      const [member] = (
        await admin.query(`SELECT "userId", role FROM "member" WHERE "organizationId" = $1`, [created.id])
      ).rows;
      expect(member).toEqual({ userId: owner.id, role: "owner" });
    });
  }
});

describe("SIGKILL in the middle of accepting an invitation", () => {
  async function invitationState(invitationId: string, organizationId: string) {
    const { rows } = await admin.query<{ status: string }>(`SELECT status FROM "invitation" WHERE id = $1`, [
      invitationId,
    ]);
    return {
      status: rows[0]?.status,
      members: await count(`"member" WHERE "organizationId" = $1 AND "userId" = $2`, [organizationId, joiner.id]),
      activeIn: await count(`"session" WHERE "activeOrganizationId" = $1 AND "userId" = $2`, [
        organizationId,
        joiner.id,
      ]),
      audit: await count(
        `"audit_event" WHERE "organization_id" = $1 AND "action" IN ('invitation.accepted', 'member.added')`,
        [organizationId],
      ),
    };
  }

  it("killed after the invitation is marked accepted, before the member is written: still pending, no member; accepted once after a restart", async () => {
    const organization = await createOrganizationWithOwner(owner, "Inviting");
    const invite = await owner.client.post("/api/auth/organization/invite-member", {
      email: joiner.email,
      role: "member",
      organizationId: organization.id,
    });
    expect(invite.status).toBe(200);
    const invitationId = (invite.data as { id: string }).id;

    const killed = await killInside("member", () =>
      joiner.client.post("/api/auth/organization/accept-invitation", { invitationId }),
    );
    expect(await invitationState(invitationId, organization.id)).toEqual({
      status: "pending",
      members: 0,
      activeIn: 0,
      audit: 0,
    });
    expect(killed.inTransaction).toBe(true);

    server = await startServer("restarted");
    const accepted = await joiner.client.post("/api/auth/organization/accept-invitation", { invitationId });
    expect(accepted.status).toBe(200);
    expect(await invitationState(invitationId, organization.id)).toEqual({
      status: "accepted",
      members: 1,
      activeIn: 1,
      audit: 2,
    });
    await expectError(
      await joiner.client.post("/api/auth/organization/accept-invitation", { invitationId }),
      400,
      "Invitation not found",
    );
    expect(await invitationState(invitationId, organization.id)).toEqual({
      status: "accepted",
      members: 1,
      activeIn: 1,
      audit: 2,
    });
  });
});
