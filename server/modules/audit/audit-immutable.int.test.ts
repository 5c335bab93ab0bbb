import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEntries, onlyEntry, startAuditServer, stopAuditServer } from "../../test/audit-harness";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import type { TestApp } from "../../test/test-database";

/**
 * The audit log through the HTTP API: nothing in the product edits or deletes an entry. One app on a real port
 * serves the file.
 */

let server: TestApp;
/** A platform admin (role set in the database): reads the whole log for the assertions. */
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});

afterAll(stopAuditServer);

describe("entries cannot be changed through the product", () => {
  it("PUT, PATCH, DELETE and POST on the log's paths answer the API's 404, and the entry stays as it was", async () => {
    const owner = await createVerifiedUser(server, { label: "immutable" });
    const organization = await createOrganizationWithOwner(owner, "Immutable");
    const target = await onlyEntry({ targetId: organization.id, action: "organization.created" });
    const paths: Array<[TestUser, string]> = [
      [platformAdmin, "/api/admin/audit-log"],
      [platformAdmin, `/api/admin/audit-log/${target.id}`],
      [owner, `/api/organizations/${organization.id}/audit-log`],
      [owner, `/api/organizations/${organization.id}/audit-log/${target.id}`],
    ];
    for (const [user, path] of paths) {
      for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
        const response = await user.client.request(path, {
          method,
          json: { action: "user.deleted", actor_label: "forged" },
        });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.data).toEqual({
          code: "NOT_FOUND",
          message: `No endpoint ${method} ${path}`,
          requestId: expect.any(String),
        });
      }
    }
    expect(await onlyEntry({ targetId: organization.id, action: "organization.created" })).toEqual(target);
    expect(await findEntries({ organizationId: organization.id })).toEqual([target]);
  });
});
