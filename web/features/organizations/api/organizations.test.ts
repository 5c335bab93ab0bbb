import { describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/api-error";
import { serverErrorTarget } from "../../../lib/form";
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
    expect(
      serverErrorTarget(new ApiError("Metadata too deep", 400, "INVALID_METADATA"), updateOrganizationServerErrors),
    ).toEqual({
      field: "metadata",
      message: "Metadata too deep",
    });
    expect(
      serverErrorTarget(
        new ApiError("Slug taken", 400, "ORGANIZATION_SLUG_ALREADY_TAKEN"),
        updateOrganizationServerErrors,
      ),
    ).toEqual({
      field: "slug",
      message: "Slug taken",
    });
    expect(serverErrorTarget(new ApiError("Not allowed", 403, "FORBIDDEN"), updateOrganizationServerErrors)).toEqual({
      message: "Not allowed",
    });
  });
});
