import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_PLAN_LIMITS } from "../../../common/billing.schemas";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  type CreatedOrganization,
  type TestUser,
} from "../../test/factories";
import { createClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * A deployment without a billing provider (no POLAR_ACCESS_TOKEN, the sandbox off, as in production by default):
 * no plan limit applies, since no plan could be bought to lift it, and every billing endpoint says billing is not
 * configured, with a 404 no client retries.
 */

let server: TestApp;
let owner: TestUser;
let organization: CreatedOrganization;

beforeAll(async () => {
  server = await createTestApp({ env: { BILLING_SANDBOX: "false" } });
  owner = await createVerifiedUser(server);
  organization = await createOrganizationWithOwner(owner, "Unbilled");
});
afterAll(async () => server.close());

const NOT_CONFIGURED = {
  code: "BILLING_NOT_CONFIGURED",
  message: "Billing is not configured on this deployment.",
  requestId: expect.any(String) as unknown,
};

describe("without a billing provider", () => {
  it("is configured so: no provider, no sandbox", () => {
    expect(server.config.billing).toBeNull();
    expect(server.services.sandbox).toBeUndefined();
  });

  it("applies no plan limit: 12 invitations, a 13th member and 6 more teams all pass the free plan's 10 and 5", async () => {
    expect(FREE_PLAN_LIMITS).toEqual({ members: 10, teams: 5 });
    for (let index = 0; index < 12; index += 1) {
      const invited = await owner.client.post("/api/auth/organization/invite-member", {
        email: `invitee${index}-${organization.id}@example.com`.toLowerCase(),
        role: "member",
        organizationId: organization.id,
      });
      expect(invited.status).toBe(200);
    }
    await addMember(owner, organization.id, await createVerifiedUser(server));
    for (let index = 0; index < 6; index += 1) {
      const created = await owner.client.post("/api/auth/organization/create-team", {
        name: `Team ${index}`,
        organizationId: organization.id,
      });
      expect(created.status).toBe(200);
    }
    const members = await server.db
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", organization.id)
      .execute();
    const pending = await server.db
      .selectFrom("invitation")
      .select("id")
      .where("organizationId", "=", organization.id)
      .where("status", "=", "pending")
      .execute();
    const teams = await server.db
      .selectFrom("team")
      .select("id")
      .where("organizationId", "=", organization.id)
      .execute();
    expect({ members: members.length, pending: pending.length, teams: teams.length }).toEqual({
      members: 2,
      pending: 12,
      teams: 7,
    });
  });

  it("answers every billing endpoint 404 BILLING_NOT_CONFIGURED, for members, admins' routes and the webhook alike", async () => {
    const billing = `/api/organizations/${organization.id}/billing`;
    const admin = `/api/admin/billing/organizations/${organization.id}`;
    const calls: Array<[method: "GET" | "POST", path: string, body?: unknown]> = [
      ["GET", "/api/billing/plans"],
      ["GET", billing],
      ["GET", `${billing}/checkouts/ck_1`],
      ["GET", `${billing}/change-preview?productId=prod_1`],
      ["POST", `${billing}/checkout`, { productId: "prod_1" }],
      ["POST", `${billing}/subscription`, { cancelAtPeriodEnd: true }],
      ["POST", `${billing}/portal`, {}],
      ["POST", `${billing}/usage`, { meter: "api_request", quantity: 1 }],
      ["GET", admin],
      ["POST", `${admin}/refunds`, { orderId: "ord_1", reason: "other", comment: "Test" }],
      ["POST", `${admin}/subscription/cancel`, { when: "now", reason: "Test" }],
      ["POST", `${admin}/reconcile`, {}],
    ];
    for (const [method, path, body] of calls) {
      const response = method === "GET" ? await owner.client.get(path) : await owner.client.post(path, body);
      expect([method, path, response.status, response.data]).toEqual([method, path, 404, NOT_CONFIGURED]);
    }
    const webhook = await createClient(server).request("/api/billing/webhooks", {
      method: "POST",
      json: { type: "order.paid" },
      origin: null,
    });
    expect([webhook.status, webhook.data]).toEqual([404, NOT_CONFIGURED]);
    expect(await server.db.selectFrom("billing_usage_event").select("id").execute()).toEqual([]);
  });
});
