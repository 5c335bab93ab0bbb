import { describe, expect, it } from "vitest";
import { isoText, objectRecord, stateOf, toOrder, toRefund } from "./billing.projection";
import type { models } from "./billing.provider";

describe("isoText", () => {
  it("normalises the provider's timestamps to sortable ISO text", () => {
    expect(isoText("2026-01-02T03:04:05.123456+00:00")).toBe("2026-01-02T03:04:05.123Z");
    expect(isoText(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05.000Z");
    expect(isoText(null)).toBeNull();
    expect(isoText(undefined)).toBeNull();
    expect(isoText("not a date")).toBeNull();
  });
});

describe("objectRecord", () => {
  it("stamps a provider object with its last change, or its creation when it never changed", () => {
    const changed = { id: "sub_1", created_at: "2026-01-01T00:00:00Z", modified_at: "2026-01-05T00:00:00+00:00" };
    expect(objectRecord(changed)).toEqual({
      id: "sub_1",
      createdAt: "2026-01-01T00:00:00.000Z",
      modifiedAt: "2026-01-05T00:00:00.000Z",
      data: changed,
    });
    expect(objectRecord({ ...changed, modified_at: null }).modifiedAt).toBe("2026-01-01T00:00:00.000Z");
  });
});

describe("stateOf", () => {
  it("parses the stored customer state, if any", () => {
    expect(stateOf(undefined)).toBeUndefined();
    expect(stateOf({ state: null })).toBeUndefined();
    expect(stateOf({ state: '{"id":"cus_1"}' })).toEqual({ id: "cus_1" });
  });
});

describe("contract shapes", () => {
  it("maps orders and refunds, with nulls for what the provider left out", () => {
    const order = {
      id: "ord_1",
      created_at: "2026-01-01T00:00:00Z",
      total_amount: 2900,
      refunded_amount: 0,
      currency: "usd",
      status: "paid",
      billing_reason: "subscription_create",
      product: null,
    } as unknown as models.Order;
    expect(toOrder(order)).toMatchObject({
      id: "ord_1",
      createdAt: "2026-01-01T00:00:00.000Z",
      productName: null,
      invoiceNumber: null,
    });
    const refund = { id: "ref_1", order_id: "ord_1", created_at: "2026-01-02T00:00:00Z", amount: 100, currency: "usd" };
    expect(
      toRefund({ ...refund, status: "succeeded", reason: "customer_request" } as unknown as models.Refund),
    ).toEqual({
      id: "ref_1",
      orderId: "ord_1",
      createdAt: "2026-01-02T00:00:00.000Z",
      amount: 100,
      currency: "usd",
      status: "succeeded",
      reason: "customer_request",
    });
  });
});
