import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminOrganizationBilling, BillingOverview } from "../../../common/billing.schemas";
import { startAuditServer, stopAuditServer } from "../../test/audit-harness";
import { productIdOf, subscribe } from "../../test/billing";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import type { TestApp } from "../../test/test-database";

/**
 * A meter is called by its name at the provider wherever the app shows it. Team has no metered price (its
 * subscription names no meter), yet its plan credits the "API requests" meter: the owner's billing page and the
 * admin console's panel both name it so, as Pro's do.
 */

let server: TestApp;
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});
afterAll(stopAuditServer);

async function meterNames(owner: TestUser, organizationId: string) {
  const own = await owner.client.get(`/api/organizations/${organizationId}/billing`);
  expect(own.status).toBe(200);
  const admin = await platformAdmin.client.get(`/api/admin/billing/organizations/${organizationId}`);
  expect(admin.status).toBe(200);
  return {
    owner: (own.data as BillingOverview).meters.map((meter) => meter.name),
    admin: (admin.data as AdminOrganizationBilling).overview.meters.map((meter) => meter.name),
  };
}

describe("meter names", () => {
  it.each([
    ["pro", undefined],
    ["team", 2],
  ])("on %s, the owner and the admin console both call the meter API requests", async (plan, seats) => {
    const owner = await createVerifiedUser(server, { label: `meter-${plan}` });
    const organization = await createOrganizationWithOwner(owner, `Metered ${plan}`);
    const productId = await productIdOf(owner.client, plan);
    await subscribe(server, owner, organization.id, { productId, ...(seats ? { seats } : {}) });
    expect(await meterNames(owner, organization.id)).toEqual({ owner: ["API requests"], admin: ["API requests"] });
  });
});
