import { Hono } from "hono";
import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../../common/error-codes";
import type { Dialect } from "../../db/database";
import type { Database } from "../../db/schema";
import type { GetSession, SessionEnv } from "../../http/app-env";
import { DomainError } from "../../../common/domain-error";
import { requirePlatformPermission } from "../../http/middleware/platform-access";
import { validate } from "../../http/validate";
import { requestAuditContext } from "../audit";
import {
  adminOrganizationListQuerySchema,
  adminOrganizationParamsSchema,
  adminUserListQuerySchema,
  adminUserParamsSchema,
  assignOwnerSchema,
  resetSecondFactorsSchema,
  type AdminOrganizationDetail,
  type AdminOrganizationList,
  type AdminUserDetail,
  type AdminUserList,
  type PlansOf,
  type SecondFactorsReset,
} from "./admin.schemas";
import { getOrganizationDetail, getUserDetail, listOrganizations, listUsers } from "./admin.service";
import { assignOwner, type AssertWithinLimit } from "./operations/assign-owner";
import { resetSecondFactors } from "./operations/reset-second-factors";
import type { MailQueue } from "../mail";

/**
 * The console's reads, mounted at /api/admin: users (search, filters, sorting, paging) and a user's page,
 * organizations and an organization's page; giving an organization a new owner (operations/assign-owner.ts) and
 * resetting a locked-out user's second factors (operations/reset-second-factors.ts).
 * Changes to users go through better-auth's admin endpoints (audited by the admin plugin); sessions are
 * better-auth's `/admin/list-user-sessions`.
 */
export function adminRoutes(deps: {
  getSession: GetSession;
  adminUserIds: readonly string[];
  db: Kysely<Database>;
  dialect: Dialect;
  plansOf: PlansOf;
  assertWithinLimit: AssertWithinLimit;
  mail: MailQueue;
  baseUrl: string;
}) {
  const users = requirePlatformPermission(deps, { user: ["list"] });
  const organizations = requirePlatformPermission(deps, { organization: ["list"] });
  const organizationChanges = requirePlatformPermission(deps, { organization: ["update"] });
  // Like setting a password and signing the user out everywhere, which the reset does.
  const secondFactorResets = requirePlatformPermission(deps, { user: ["set-password"], session: ["revoke"] });
  return new Hono<SessionEnv>()
    .get("/users", users, validate("query", adminUserListQuerySchema), async (c) =>
      c.json((await listUsers(deps.db, deps.dialect, deps.adminUserIds, c.req.valid("query"))) satisfies AdminUserList),
    )
    .get("/users/:userId", users, validate("param", adminUserParamsSchema), async (c) => {
      const detail = await getUserDetail(deps.db, deps.adminUserIds, c.req.valid("param").userId);
      if (!detail) throw new DomainError(ERROR_CODES.NOT_FOUND, "user not found");
      return c.json(detail satisfies AdminUserDetail);
    })
    .post(
      "/users/:userId/two-factor/reset",
      secondFactorResets,
      validate("param", adminUserParamsSchema),
      validate("json", resetSecondFactorsSchema),
      async (c) =>
        c.json(
          (await resetSecondFactors(
            deps,
            c.req.valid("param").userId,
            c.req.valid("json"),
            requestAuditContext(c),
          )) satisfies SecondFactorsReset,
        ),
    )
    .get("/organizations", organizations, validate("query", adminOrganizationListQuerySchema), async (c) =>
      c.json((await listOrganizations(deps.db, deps.plansOf, c.req.valid("query"))) satisfies AdminOrganizationList),
    )
    .get(
      "/organizations/:organizationId",
      organizations,
      validate("param", adminOrganizationParamsSchema),
      async (c) => {
        const detail = await getOrganizationDetail(deps.db, c.req.valid("param").organizationId);
        if (!detail) throw new DomainError(ERROR_CODES.NOT_FOUND, "organization not found");
        return c.json(detail satisfies AdminOrganizationDetail);
      },
    )
    .post(
      "/organizations/:organizationId/owner",
      organizationChanges,
      validate("param", adminOrganizationParamsSchema),
      validate("json", assignOwnerSchema),
      async (c) =>
        c.json(
          await assignOwner(deps, c.req.valid("param").organizationId, c.req.valid("json"), requestAuditContext(c)),
        ),
    );
}

export type AdminRoutes = ReturnType<typeof adminRoutes>;
