import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * What POST /api/organizations/:id/billing/usage accepts: a meter the provider counts (the sandbox's seeded
 * "API requests" meter counts `api_request` events), a whole quantity from 1 to 1,000,000, an idempotency key of
 * 1 to 128 letters, digits or `_ . : -`. Anything else is refused and nothing is queued.
 */

let server: TestApp;
let owner: TestUser;
let usagePath: string;
let organizationId: string;

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  owner = await createVerifiedUser(server);
  organizationId = (await createOrganizationWithOwner(owner, "Metered")).id;
  usagePath = `/api/organizations/${organizationId}/billing/usage`;
});
afterAll(async () => server.close());

async function queuedUsage(): Promise<Array<{ event_name: string; quantity: number; idempotency_key: string | null }>> {
  return server.db
    .selectFrom("billing_usage_event")
    .select(["event_name", "quantity", "idempotency_key"])
    .where("organization_id", "=", organizationId)
    .orderBy("created_at")
    .execute();
}

describe("usage records are validated before they are queued", () => {
  it("refuses a meter no provider meter counts with 400, naming the known meters", async () => {
    const response = await owner.client.post(usagePath, { meter: "api_requests", quantity: 3 });
    expect(response.status).toBe(400);
    expect(response.data).toEqual({
      code: "VALIDATION_ERROR",
      message: 'meter: no meter counts "api_requests". Use one of: api_request.',
      details: { fieldErrors: { meter: ["Use one of: api_request."] }, knownMeters: ["api_request"] },
      requestId: expect.any(String),
    });
    expect(await queuedUsage()).toEqual([]);
  });

  const atLeastOne = {
    origin: "number",
    code: "too_small",
    minimum: 1,
    inclusive: true,
    path: ["quantity"],
    message: "Quantity must be at least 1",
  };
  it.each([
    ["nothing", 0, atLeastOne],
    ["a negative number", -5, atLeastOne],
    [
      "more than a million",
      1_000_001,
      {
        origin: "number",
        code: "too_big",
        maximum: 1_000_000,
        inclusive: true,
        path: ["quantity"],
        message: "Quantity must be at most 1000000",
      },
    ],
    [
      "a fraction",
      1.5,
      {
        expected: "int",
        format: "safeint",
        code: "invalid_type",
        path: ["quantity"],
        message: "Quantity must be a whole number",
      },
    ],
    [
      "a string",
      "5",
      {
        expected: "number",
        code: "invalid_type",
        path: ["quantity"],
        message: "Invalid input: expected number, received string",
      },
    ],
  ])("refuses %s as the quantity", async (_label, quantity, issue) => {
    const response = await owner.client.post(usagePath, { meter: "api_request", quantity });
    expect(response.status).toBe(400);
    expect(response.data).toEqual({
      code: "VALIDATION_ERROR",
      message: `quantity: ${issue.message}`,
      details: [issue],
      requestId: expect.any(String),
    });
    expect(await queuedUsage()).toEqual([]);
  });

  it.each([
    ["a space", "job 1"],
    ["a slash", "jobs/1"],
    ["non-ASCII letters", "tâche-1"],
    ["nothing", ""],
    ["129 characters", "k".repeat(129)],
  ])("refuses an idempotency key with %s", async (_label, key) => {
    const response = await owner.client.post(usagePath, { meter: "api_request", quantity: 1, key });
    expect(response.status).toBe(400);
    expect(response.data).toEqual({
      code: "VALIDATION_ERROR",
      message: "key: Use 1 to 128 letters, digits or _ . : - as the idempotency key",
      details: [
        {
          origin: "string",
          code: "invalid_format",
          format: "regex",
          pattern: "/^[A-Za-z0-9_.:-]{1,128}$/",
          path: ["key"],
          message: "Use 1 to 128 letters, digits or _ . : - as the idempotency key",
        },
      ],
      requestId: expect.any(String),
    });
    expect(await queuedUsage()).toEqual([]);
  });

  it("checks the quantity and the idempotency key before anything reads the provider's meters", async () => {
    const recordUsage = vi.spyOn(server.services.billing, "recordUsage");
    try {
      expect((await owner.client.post(usagePath, { meter: "no_such_meter", quantity: 0 })).status).toBe(400);
      expect((await owner.client.post(usagePath, { meter: "no_such_meter", quantity: 1, key: "a b" })).status).toBe(
        400,
      );
      expect(recordUsage).not.toHaveBeenCalled();
    } finally {
      recordUsage.mockRestore();
    }
  });

  it("queues a known meter with a whole quantity and a well-formed key, once per key", async () => {
    const key = `order:42_${"k".repeat(110)}`;
    const first = await owner.client.post(usagePath, { meter: "api_request", quantity: 1_000_000, key });
    expect(first.status).toBe(202);
    expect(first.data).toEqual({ id: expect.any(String), duplicate: false });
    const repeat = await owner.client.post(usagePath, { meter: "api_request", quantity: 1_000_000, key });
    expect(repeat.status).toBe(202);
    expect(repeat.data).toEqual({ id: (first.data as { id: string }).id, duplicate: true });
    expect(await queuedUsage()).toEqual([{ event_name: "api_request", quantity: 1_000_000, idempotency_key: key }]);
  });
});
