import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutIdOf, productIdOf, sandboxCall } from "../../test/billing";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-database";

/** The provider's hosted checkout starts with the e-mail address of the person who started it. */

let server: TestApp;
let owner: TestUser;
let organizationId: string;

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  owner = await createVerifiedUser(server, { label: "checkout-email" });
  organizationId = (await createOrganizationWithOwner(owner, "Prefilled")).id;
});
afterAll(async () => server.close());

describe("checkout e-mail", () => {
  it("hands the provider the signed-in person's address", async () => {
    const productId = await productIdOf(owner.client, "pro");
    const started = await owner.client.post(`/api/organizations/${organizationId}/billing/checkout`, { productId });
    expect(started.status).toBe(200);
    const checkoutId = await checkoutIdOf(server, started.data.url as string);
    const checkout = await sandboxCall(server, "GET", `/v1/checkouts/${checkoutId}`);
    expect(checkout.body.customer_email).toBe(owner.email);
  });
});
