import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error";
import { DISCOUNT_CODE_REFUSED_MESSAGE } from "../../../lib/error-sentences";
import { billingErrorMessage, isDiscountCodeRefusal, toBillingError } from "./billing-errors";

describe("billing errors in product words", () => {
  it("words each code the billing endpoints answer with, not the server's message", () => {
    const providerDown = new ApiError(
      "The billing provider is not answering (start the checkout); nothing was changed.",
      503,
      "SERVICE_UNAVAILABLE",
    );
    expect(billingErrorMessage(providerDown)).toBe(
      "The payment provider is not answering right now. Nothing was changed; try again in a moment.",
    );
    const providerSlow = new ApiError(
      "The billing provider did not answer in time (change the plan).",
      504,
      "UPSTREAM_TIMEOUT",
    );
    expect(billingErrorMessage(providerSlow)).toBe(
      "The payment provider did not answer in time. Reload the page in a moment: if the change is not there, try again (it is never made twice).",
    );
    expect(billingErrorMessage(new ApiError("You are not allowed to access resource: billing", 403, "FORBIDDEN"))).toBe(
      "Only owners and admins can change billing.",
    );
    expect(billingErrorMessage(new ApiError("The Free plan includes 5 seats…", 403, "PLAN_LIMIT_REACHED"))).toBe(
      "Your plan's limit is reached. An owner can make room in Settings › Billing.",
    );
  });

  it("falls back on the status for a code it does not know", () => {
    expect(billingErrorMessage(new ApiError("Request failed (504)", 504))).toBe(
      "The payment provider is not answering right now. Nothing was changed; try again in a moment.",
    );
    expect(billingErrorMessage(new ApiError("boom", 500, "SOMETHING_ELSE"))).toBe(
      "Something went wrong on our side. Nothing was changed; try again in a moment.",
    );
  });

  it("speaks to platform admins as staff", () => {
    expect(billingErrorMessage(new ApiError("forbidden", 403, "FORBIDDEN"), "admin")).toBe(
      "Only platform admins can do this.",
    );
  });

  it("keeps the status, code and details, and words an unknown discount code for its field", () => {
    const rewritten = toBillingError(new ApiError("Request failed", 409, "CONFLICT"));
    expect(rewritten).toMatchObject({ status: 409, code: "CONFLICT" });
    const discount = toBillingError(
      new ApiError("That discount code is not valid.", 400, "VALIDATION_ERROR", {
        fieldErrors: { discountCode: ["That discount code is not valid."] },
      }),
    );
    expect(discount).toMatchObject({ status: 400, code: "VALIDATION_ERROR", message: DISCOUNT_CODE_REFUSED_MESSAGE });
    expect(isDiscountCodeRefusal(discount)).toBe(true);
    const seats = new ApiError("seats", 400, "VALIDATION_ERROR", { fieldErrors: { seats: ["too many"] } });
    expect(isDiscountCodeRefusal(seats)).toBe(false);
    const network = new TypeError("Failed to fetch");
    expect(toBillingError(network)).toBe(network);
  });
});
