import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BillingMeter, BillingOverview } from "../../../common/billing.schemas";
import { productIdOf, sandboxCall, settleBilling, subscribe, withWebhooksOff } from "../../test/billing";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * Usage shows on the billing page as soon as it is recorded: the app keeps its own running count per meter and
 * period, added to in the transaction that queues the record, and the reconciliation sets it to the provider's count
 * plus what is still queued. The sandbox's Pro plan includes 10,000 "API requests" (events `api_request`) and bills
 * each one above that at 0.1 cent.
 */

let server: TestApp;
let owner: TestUser;

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  owner = await createVerifiedUser(server);
});
afterAll(async () => server.close());

async function subscribedOrganization(name: string): Promise<string> {
  const { id } = await createOrganizationWithOwner(owner, name);
  await subscribe(server, owner, id, { productId: await productIdOf(owner.client, "pro") });
  return id;
}

async function meterOf(organizationId: string): Promise<BillingMeter | undefined> {
  const response = await owner.client.get(`/api/organizations/${organizationId}/billing`);
  expect(response.status).toBe(200);
  return (response.data as BillingOverview).meters[0];
}

const record = (organizationId: string, body: { quantity: number; key?: string }) =>
  owner.client.post(`/api/organizations/${organizationId}/billing/usage`, { meter: "api_request", ...body });

describe("the running count of usage", () => {
  it("shows a record on the billing page at once, with the overage estimate, before the provider counts", async () => {
    const organizationId = await subscribedOrganization("Immediate");
    expect(await meterOf(organizationId)).toEqual({
      meterId: expect.any(String),
      name: "API requests",
      consumed: 0,
      credited: 10_000,
      remaining: 10_000,
      overageEstimate: 0,
    });
    // No state change reaches the app: what the page shows is the app's own count.
    await withWebhooksOff(server, async () => {
      expect((await record(organizationId, { quantity: 12_345, key: "batch-1" })).status).toBe(202);
      expect((await record(organizationId, { quantity: 12_345, key: "batch-1" })).status).toBe(202);
      expect(await meterOf(organizationId)).toMatchObject({
        consumed: 12_345,
        credited: 10_000,
        remaining: -2_345,
        // 2,345 requests above the included 10,000 at 0.1 cent: $2.345, rounded to the cent.
        overageEstimate: 235,
      });
      await settleBilling(server);
    });
  });

  it("is reconciled with the provider's count plus what is still queued", async () => {
    const organizationId = await subscribedOrganization("Reconciled");
    expect((await record(organizationId, { quantity: 40 })).status).toBe(202);
    await settleBilling(server);
    // Usage the provider counted without the app: reported to it directly.
    const ingested = await sandboxCall(server, "POST", "/v1/events/ingest", {
      events: [{ name: "api_request", external_customer_id: organizationId, metadata: { quantity: 60 } }],
    });
    expect(ingested.status).toBe(200);
    // And a count that drifted above the provider's (a record the provider later refused for good).
    await server.db
      .updateTable("billing_usage_count")
      .set({ quantity: 5_000 })
      .where("organization_id", "=", organizationId)
      .execute();
    expect(await meterOf(organizationId)).toMatchObject({ consumed: 5_000 });

    await server.services.billing.reconcile(organizationId);
    expect(await meterOf(organizationId)).toMatchObject({ consumed: 100, remaining: 9_900, overageEstimate: 0 });
  });

  it("counts nothing for an organization without a subscription", async () => {
    const { id } = await createOrganizationWithOwner(owner, "Unsubscribed");
    expect((await record(id, { quantity: 5 })).status).toBe(202);
    expect(
      await server.db.selectFrom("billing_usage_count").selectAll().where("organization_id", "=", id).execute(),
    ).toEqual([]);
  });
});
