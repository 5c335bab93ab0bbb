import { describe, expect, it } from "vitest";
import { rolesAllow } from "../../common/permissions";

// The check behind `can(…)` in the organization settings pages (features/organizations/components/organization-context.tsx):
// the web offers an action only when the caller's role string allows it.
describe("rolesAllow, as the web app calls it with a member's role string", () => {
  it("lets owners delete the organization but not admins or members", () => {
    expect(rolesAllow("owner", { organization: ["delete"] })).toBe(true);
    expect(rolesAllow("admin", { organization: ["delete"] })).toBe(false);
    expect(rolesAllow("member", { organization: ["delete"] })).toBe(false);
  });

  it("needs every requested action from one role", () => {
    expect(rolesAllow("admin", { organization: ["update"], member: ["delete"] })).toBe(true);
    expect(rolesAllow("admin", { organization: ["update", "delete"] })).toBe(false);
  });

  it("passes when any of several comma-separated roles allows it, spaces and all", () => {
    expect(rolesAllow("member, admin", { invitation: ["create"] })).toBe(true);
    expect(rolesAllow("member,member", { invitation: ["create"] })).toBe(false);
  });

  it("refuses without a role, with an unknown role, or when nothing is asked", () => {
    expect(rolesAllow(null, { team: ["create"] })).toBe(false);
    expect(rolesAllow("", { team: ["create"] })).toBe(false);
    expect(rolesAllow("superuser", { team: ["create"] })).toBe(false);
    expect(rolesAllow("owner", {})).toBe(false);
  });
});
