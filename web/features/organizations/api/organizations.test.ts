import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error";
import { serverErrorTarget } from "../../../lib/form";
import { explainInvitationError } from "../routes/invitation-page";
import { slugify, updateOrganizationServerErrors } from "./organizations";

describe("slugify", () => {
  it("lower-cases, drops accents and joins words with single dashes", () => {
    expect(slugify("Rocket Club")).toBe("rocket-club");
    expect(slugify("  Café Crème -- Zürich!  ")).toBe("cafe-creme-zurich");
    expect(slugify("ACME_Corp.io")).toBe("acme-corp-io");
  });

  it("gives nothing for a name without letters or digits, and at most 48 characters", () => {
    expect(slugify("!!! ???")).toBe("");
    expect(slugify("a".repeat(60))).toHaveLength(48);
  });
});

describe("general settings: server errors", () => {
  it("puts bad metadata and a taken slug on their fields, the rest above the form", () => {
    expect(serverErrorTarget(new ApiError("Metadata too deep", 400, "INVALID_METADATA"), updateOrganizationServerErrors)).toEqual({
      field: "metadata",
      message: "Metadata too deep",
    });
    expect(serverErrorTarget(new ApiError("Slug taken", 400, "ORGANIZATION_SLUG_ALREADY_TAKEN"), updateOrganizationServerErrors)).toEqual({
      field: "slug",
      message: "Slug taken",
    });
    expect(serverErrorTarget(new ApiError("Not allowed", 403, "FORBIDDEN"), updateOrganizationServerErrors)).toEqual({ message: "Not allowed" });
  });
});

describe("explainInvitationError", () => {
  it("tells the invited person what to do for the errors they can act on", () => {
    expect(explainInvitationError(new ApiError("x", 403, "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION"))).toMatch(/sent to another e-mail address/);
    expect(explainInvitationError(new ApiError("x", 400, "INVITATION_NOT_FOUND"))).toMatch(/no longer valid/);
    expect(explainInvitationError(new ApiError("x", 403, "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION"))).toMatch(
      /Verify your e-mail/,
    );
  });

  it("falls back to the error's own message", () => {
    expect(explainInvitationError(new ApiError("Rate limited", 429, "TOO_MANY_REQUESTS"))).toBe("Rate limited");
    expect(explainInvitationError(new TypeError("fetch failed"))).toMatch(/Could not reach the server/);
  });
});
