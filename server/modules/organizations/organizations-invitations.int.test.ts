import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activeOrganizationOf,
  createOrganizationWithOwner,
  createVerifiedUser,
  listMails,
  type TestUser,
} from "../../test/factories";
import { memberRow, installFailingMemberInsert, removeFailingMemberInsert } from "../../test/organization-rows";
import { createClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The organization rules of the product spec (sections 3–8) through the HTTP API: exact statuses and the
 * spec's lower-case messages (better-auth's are rewritten by server/auth/spec-errors.ts). Invitations.
 */

let server: TestApp;

beforeAll(async () => {
  server = await createTestApp();
});

afterAll(async () => {
  await server?.close();
});

describe("invitations (spec sections 3, 4)", () => {
  let owner: TestUser;
  let organizationId: string;

  beforeAll(async () => {
    owner = await createVerifiedUser(server, { label: "inv-owner" });
    organizationId = (await createOrganizationWithOwner(owner, "Inviting")).id;
  });

  async function invite(email: string, extra: Record<string, unknown> = {}) {
    return owner.client.post("/api/auth/organization/invite-member", {
      email,
      role: "member",
      organizationId,
      ...extra,
    });
  }

  async function mailsTo(email: string) {
    // Sign-up mailed a verification link too; only the invitations matter here.
    return (await listMails(server, email)).filter((mail) => mail.subject.includes("invited you"));
  }

  async function setExpiresAt(id: string, expiresAt: Date) {
    const value = server.dialect === "postgres" ? expiresAt : expiresAt.toISOString();
    await server.db.updateTable("invitation").set({ expiresAt: value }).where("id", "=", id).execute();
  }

  async function invitationRow(id: string) {
    return server.db.selectFrom("invitation").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  it("lasts two days, starts pending, and mails a link to /invitations/<id> on the app's base URL", async () => {
    const invitee = await createVerifiedUser(server, { label: "invitee" });
    const before = Date.now();
    const response = await invite(invitee.email);
    expect(response.status).toBe(200);
    expect(response.data.status).toBe("pending");
    const expiresAt = new Date(response.data.expiresAt).getTime();
    const twoDays = 48 * 60 * 60 * 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(before + twoDays - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + twoDays + 1000);

    const mails = await mailsTo(invitee.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${server.config.baseUrl}/invitations/${response.data.id}`);
  });

  it("accepting makes the invitee a member with the invited role and marks the invitation accepted", async () => {
    const invitee = await createVerifiedUser(server, { label: "acceptor" });
    const invitation = await invite(invitee.email, { role: "admin" });
    const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", {
      invitationId: invitation.data.id,
    });
    expect(accepted.status).toBe(200);
    expect((await invitationRow(invitation.data.id)).status).toBe("accepted");
    expect((await memberRow(server, organizationId, invitee.id))?.role).toBe("admin");
    expect(await activeOrganizationOf(invitee.client)).toBe(organizationId);
  });

  it("only the invited e-mail may accept, and only when verified", async () => {
    const invitee = await createVerifiedUser(server, { label: "rightful" });
    const intruder = await createVerifiedUser(server, { label: "intruder" });
    const invitation = await invite(invitee.email);

    const byIntruder = await intruder.client.post("/api/auth/organization/accept-invitation", {
      invitationId: invitation.data.id,
    });
    expect(byIntruder.status).toBe(403);
    expect(await memberRow(server, organizationId, intruder.id)).toBeUndefined();
    expect((await invitationRow(invitation.data.id)).status).toBe("pending");

    // The invitee's address stops being verified (e.g. after an e-mail change): no accepting until verified again.
    await server.db
      .updateTable("user")
      .set({ emailVerified: server.dialect === "postgres" ? false : 0 })
      .where("id", "=", invitee.id)
      .execute();
    const unverified = await invitee.client.post("/api/auth/organization/accept-invitation", {
      invitationId: invitation.data.id,
    });
    expect(unverified.status).toBe(403);
    expect(await memberRow(server, organizationId, invitee.id)).toBeUndefined();
    expect((await invitationRow(invitation.data.id)).status).toBe("pending");

    await server.db
      .updateTable("user")
      .set({ emailVerified: server.dialect === "postgres" ? true : 1 })
      .where("id", "=", invitee.id)
      .execute();
    const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", {
      invitationId: invitation.data.id,
    });
    expect(accepted.status).toBe(200);
  });

  it("rejecting and canceling set the statuses rejected and canceled", async () => {
    const [rejecter, canceled] = await Promise.all([
      createVerifiedUser(server, { label: "rejecter" }),
      createVerifiedUser(server, { label: "canceled" }),
    ]);
    const toReject = await invite(rejecter.email);
    const rejected = await rejecter.client.post("/api/auth/organization/reject-invitation", {
      invitationId: toReject.data.id,
    });
    expect(rejected.status).toBe(200);
    expect((await invitationRow(toReject.data.id)).status).toBe("rejected");
    expect(await memberRow(server, organizationId, rejecter.id)).toBeUndefined();

    const toCancel = await invite(canceled.email);
    const cancel = await owner.client.post("/api/auth/organization/cancel-invitation", {
      invitationId: toCancel.data.id,
    });
    expect(cancel.status).toBe(200);
    expect((await invitationRow(toCancel.data.id)).status).toBe("canceled");
    const late = await canceled.client.post("/api/auth/organization/accept-invitation", {
      invitationId: toCancel.data.id,
    });
    expect(late.status).toBe(400);
    expect(await memberRow(server, organizationId, canceled.id)).toBeUndefined();
  });

  it("previews a link to anyone, signed out too: state, organization and inviter, and nothing else; 404 for an unknown id", async () => {
    const anonymous = createClient(server);
    const invitee = await createVerifiedUser(server, { label: "previewed" });
    const invitation = await invite(invitee.email);
    const preview = await anonymous.get(`/api/invitations/${invitation.data.id}`);
    expect(preview.status).toBe(200);
    expect(preview.data).toEqual({ state: "pending", organizationName: "Inviting", inviterName: owner.name });

    await setExpiresAt(invitation.data.id, new Date(Date.now() - 1000));
    expect((await anonymous.get(`/api/invitations/${invitation.data.id}`)).data).toEqual({
      state: "expired",
      organizationName: "Inviting",
      inviterName: owner.name,
    });

    const toCancel = await invite(`canceled-${invitee.email}`);
    expect(
      (await owner.client.post("/api/auth/organization/cancel-invitation", { invitationId: toCancel.data.id })).status,
    ).toBe(200);
    expect((await anonymous.get(`/api/invitations/${toCancel.data.id}`)).data).toEqual({
      state: "canceled",
      organizationName: "Inviting",
      inviterName: owner.name,
    });

    const unknown = await anonymous.get("/api/invitations/no-such-invitation");
    expect(unknown.status).toBe(404);
    expect(unknown.data).toEqual({ code: "NOT_FOUND", message: "invitation not found", requestId: expect.any(String) });
  });

  it("keeps one pending invitation per e-mail: a re-invite is 400, resend renews it and mails again", async () => {
    const invitee = await createVerifiedUser(server, { label: "reinvited" });
    const first = await invite(invitee.email);
    expect(first.status).toBe(200);
    expect(await mailsTo(invitee.email)).toHaveLength(1);

    const again = await invite(invitee.email);
    expect(again.status).toBe(400);
    expect(
      await server.db.selectFrom("invitation").select("id").where("email", "=", invitee.email).execute(),
    ).toHaveLength(1);

    // Age the invitation (one hour left), so the renewal is visible without waiting.
    await setExpiresAt(first.data.id, new Date(Date.now() + 60 * 60 * 1000));
    const before = Date.now();
    const resent = await invite(invitee.email, { resend: true });
    expect(resent.status).toBe(200);
    const rows = await server.db
      .selectFrom("invitation")
      .select(["id", "status", "expiresAt"])
      .where("email", "=", invitee.email)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.data.id, status: "pending" });
    expect(new Date(rows[0]!.expiresAt as string | Date).getTime()).toBeGreaterThanOrEqual(
      before + 48 * 60 * 60 * 1000 - 1000,
    );

    const mails = await mailsTo(invitee.email);
    expect(mails).toHaveLength(2);
    expect(mails.every((mail) => mail.text.includes(`/invitations/${first.data.id}`))).toBe(true);
  });

  it("re-inviting after the pending invitation expired creates a new one and closes the expired one", async () => {
    const invitee = await createVerifiedUser(server, { label: "expired" });
    const first = await invite(invitee.email);
    await setExpiresAt(first.data.id, new Date(Date.now() - 60 * 1000));
    const expiredAccept = await invitee.client.post("/api/auth/organization/accept-invitation", {
      invitationId: first.data.id,
    });
    expect(expiredAccept.status).toBe(400);

    const second = await invite(invitee.email);
    expect(second.status).toBe(200);
    expect(second.data.id).not.toBe(first.data.id);
    expect((await invitationRow(first.data.id)).status).toBe("canceled");
    const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", {
      invitationId: second.data.id,
    });
    expect(accepted.status).toBe(200);
  });

  it("accepting is atomic: when the membership cannot be written the invitation stays pending and no team membership remains", async () => {
    const invitee = await createVerifiedUser(server, { label: "atomic-invitee" });
    const teamResponse = await owner.client.post("/api/auth/organization/create-team", {
      name: "Atomic team",
      organizationId,
    });
    expect(teamResponse.status).toBe(200);
    const invitation = await invite(invitee.email, { teamId: teamResponse.data.id });
    expect(invitation.status).toBe(200);

    await installFailingMemberInsert(server, invitee.id);
    try {
      const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", {
        invitationId: invitation.data.id,
      });
      expect(accepted.status).toBeGreaterThanOrEqual(500);
    } finally {
      await removeFailingMemberInsert(server);
    }
    expect((await invitationRow(invitation.data.id)).status).toBe("pending");
    expect(await memberRow(server, organizationId, invitee.id)).toBeUndefined();
    expect(await server.db.selectFrom("teamMember").select("id").where("userId", "=", invitee.id).execute()).toEqual(
      [],
    );

    const retried = await invitee.client.post("/api/auth/organization/accept-invitation", {
      invitationId: invitation.data.id,
    });
    expect(retried.status).toBe(200);
    expect(
      await server.db.selectFrom("teamMember").select("teamId").where("userId", "=", invitee.id).execute(),
    ).toEqual([{ teamId: teamResponse.data.id }]);
  });
});
