import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from "../../common/audit.schemas";
import { AUDIT_ACTION_LABELS, auditActionGroups, describeAuditEntry } from "./audit-actions";

function entry(action: AuditAction, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: "evt_1",
    createdAt: "2026-03-05T10:00:00.000Z",
    action,
    actor: { type: "user", id: "user_admin", label: "admin@example.test" },
    impersonator: null,
    target: null,
    organization: null,
    ipAddress: null,
    userAgent: null,
    reason: null,
    details: null,
    ...overrides,
  };
}

describe("the audit log's wording", () => {
  it("words every action, in the filter and as a sentence, with or without a target and details", () => {
    for (const action of AUDIT_ACTIONS) {
      expect(AUDIT_ACTION_LABELS[action], action).toMatch(/^[A-Z][a-z]/);
      const bare = describeAuditEntry(entry(action));
      const full = describeAuditEntry(
        entry(action, { target: { type: "user", id: "t_1", label: "Ann" }, details: { from: "a", to: "b" } }),
      );
      for (const sentence of [bare, full]) {
        expect(sentence, action).toMatch(/^[A-Z][a-z]+ /);
        // No key, placeholder or missing value leaks into what people read.
        expect(sentence, action).not.toMatch(/undefined|null|\[object|\w\.\w|_| {2}| $/);
      }
    }
  });

  it("offers every action exactly once in the filter's groups, and drops the users' actions for an organization", () => {
    expect(auditActionGroups().flatMap((group) => group.actions)).toEqual([...AUDIT_ACTIONS]);
    const organizationActions = auditActionGroups(["user"]).flatMap((group) => group.actions);
    expect(organizationActions).toEqual(AUDIT_ACTIONS.filter((action) => !action.startsWith("user.")));
  });

  it("says what changed, from the details", () => {
    const ann = { type: "user" as const, id: "user_ann", label: "ann@example.test" };
    expect(
      describeAuditEntry(entry("member.role_changed", { target: ann, details: { from: "member", to: "admin,owner" } })),
    ).toBe("Changed the role of ann@example.test from member to admin and owner");
    expect(
      describeAuditEntry(entry("user.role_changed", { target: ann, details: { from: "user", to: "admin" } })),
    ).toBe("Changed the platform role of ann@example.test from user to admin");
    expect(
      describeAuditEntry(
        entry("team.renamed", {
          target: { type: "team", id: "team_1", label: "Product" },
          details: { from: "Design", to: "Product" },
        }),
      ),
    ).toBe("Renamed team from Design to Product");
    expect(describeAuditEntry(entry("user.banned", { target: ann, details: { expiresAt: null } }))).toBe(
      "Banned ann@example.test permanently",
    );
    expect(
      describeAuditEntry(entry("user.banned", { target: ann, details: { expiresAt: "2026-04-01T00:00:00.000Z" } })),
    ).toMatch(/^Banned ann@example\.test until /);
    expect(
      describeAuditEntry(
        entry("invitation.sent", {
          target: { type: "invitation", id: "inv_1", label: "bo@example.test" },
          details: { role: "admin" },
        }),
      ),
    ).toBe("Sent invitation to bo@example.test as admin");
    expect(
      describeAuditEntry(entry("user.created", { target: ann, details: { role: "user", password: "invited" } })),
    ).toBe("Created user ann@example.test, invited to set a password");
    expect(
      describeAuditEntry(entry("billing.usage_reported", { details: { meter: "api_calls", quantity: 120 } })),
    ).toBe("Reported 120 api_calls");
    expect(describeAuditEntry(entry("billing.refund_issued", { details: { amount: 1250, currency: "usd" } }))).toMatch(
      /^Refunded .*12\.50/,
    );
    expect(describeAuditEntry(entry("organization.updated", { details: { fields: ["name", "slug"] } }))).toBe(
      "Changed the organization's name and URL",
    );
  });
});
