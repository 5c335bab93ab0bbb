import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { Kysely } from "kysely";
import {
  changePreviewQuerySchema,
  checkoutBodySchema,
  checkoutParamsSchema,
  operatorCancellationBodySchema,
  refundBodySchema,
  subscriptionChangeBodySchema,
  usageBodySchema,
  type AdminOrganizationBilling,
} from "../../../common/billing.schemas";
import { ERROR_CODES } from "../../../common/error-codes";
import { organizationParamsSchema } from "../../../common/organization.schemas";
import type { Database } from "../../db/schema";
import type { AssertFreshSession, GetSession, SessionEnv } from "../../http/app-env";
import { DomainError } from "../../../common/domain-error";
import { requirePlatformPermission } from "../../http/middleware/platform-access";
import { validate } from "../../http/validate";
import { requireOrganizationPermission, requireOrganizationScope, type ScopedEnv } from "../organizations";
import { requestAuditContext } from "../audit";
import { billingNotConfigured } from "./billing.context";
import * as repository from "./billing.repository";
import type { Billing } from "./billing.service";
import { createWebhookVerifier, receiveWebhook } from "./billing.webhooks";

type RouteDeps = {
  getSession: GetSession;
  /** A plan change or cancellation needs a recent sign-in or re-check (server/auth/fresh-authentication.ts). */
  assertFreshSession: AssertFreshSession;
  db: Kysely<Database>;
  billing: Billing;
  nudge: () => void;
  webhookSecret: string | null;
};

const BILLING = { billing: ["manage" as const] };

/**
 * On a deployment without a billing provider every billing endpoint answers 404 BILLING_NOT_CONFIGURED, before
 * anything else: it is how the deployment is set up, the same for everyone, and no client retries it.
 */
function requireBilling(billing: Pick<Billing, "isConfigured">) {
  return createMiddleware(async (_c, next) => {
    if (!billing.isConfigured) throw billingNotConfigured();
    await next();
  });
}

/**
 * The app's billing API, mounted at /api: the provider's webhook receiver, the plan catalogue, and each
 * organization's billing. Reading is for any member; every change needs the `billing` permission.
 */
export function billingRoutes(deps: RouteDeps) {
  const verify = deps.webhookSecret ? createWebhookVerifier(deps.webhookSecret) : null;
  const organization = "/organizations/:organizationId/billing";
  const billingOn = requireBilling(deps.billing);
  return new Hono<ScopedEnv>()
    .post("/billing/webhooks", async (c) => {
      if (!verify) throw billingNotConfigured();
      const body = await c.req.text();
      const delivery = verify(body, c.req.raw.headers);
      const { duplicate } = await receiveWebhook(deps, { ...delivery, body });
      return c.json({ received: true, duplicate }, duplicate ? 200 : 202);
    })
    .use("/billing/plans", billingOn)
    .get("/billing/plans", async (c) => c.json(await deps.billing.plans()))
    .use(organization, billingOn)
    .use(`${organization}/*`, billingOn)
    .use(`${organization}/*`, validate("param", organizationParamsSchema), requireOrganizationScope(deps))
    .use(organization, validate("param", organizationParamsSchema), requireOrganizationScope(deps))
    .get(organization, async (c) => {
      const scope = c.get("scope");
      return c.json(await deps.billing.overview(scope.organizationId, scope.roles));
    })
    .get(`${organization}/checkouts/:checkoutId`, validate("param", checkoutParamsSchema), async (c) => {
      const scope = c.get("scope");
      return c.json(await deps.billing.checkoutProgress(scope.organizationId, c.req.valid("param").checkoutId));
    })
    .get(`${organization}/change-preview`, validate("query", changePreviewQuerySchema), async (c) => {
      const scope = requireOrganizationPermission(c, BILLING);
      return c.json(await deps.billing.previewChange(scope.organizationId, c.req.valid("query")));
    })
    .post(`${organization}/checkout`, validate("json", checkoutBodySchema), async (c) => {
      const scope = requireOrganizationPermission(c, BILLING);
      return c.json(
        await deps.billing.startCheckout(scope.organizationId, c.req.valid("json"), requestAuditContext(c)),
      );
    })
    .post(`${organization}/subscription`, validate("json", subscriptionChangeBodySchema), async (c) => {
      const scope = requireOrganizationPermission(c, BILLING);
      await deps.assertFreshSession(c.get("session"));
      return c.json(
        await deps.billing.changeSubscription(
          scope.organizationId,
          scope.roles,
          c.req.valid("json"),
          requestAuditContext(c),
        ),
      );
    })
    .post(`${organization}/portal`, async (c) => {
      const scope = requireOrganizationPermission(c, BILLING);
      return c.json(await deps.billing.portal(scope.organizationId));
    })
    .post(`${organization}/usage`, validate("json", usageBodySchema), async (c) => {
      const scope = requireOrganizationPermission(c, BILLING);
      const result = await deps.billing.recordUsage(scope.organizationId, c.req.valid("json"), requestAuditContext(c));
      return c.json({ id: result.id, duplicate: result.duplicate }, 202);
    });
}

/**
 * The platform admin's view of one organization's billing, mounted at /api/admin/billing: payments, refunds, an
 * operator's cancellation, reconciliation.
 */
export function adminBillingRoutes(deps: {
  getSession: GetSession;
  adminUserIds: readonly string[];
  db: Kysely<Database>;
  billing: Billing;
}) {
  const organization = "/organizations/:organizationId";
  const organizationView = async (organizationId: string): Promise<AdminOrganizationBilling> => {
    const found = await repository.findOrganization(deps.db, organizationId);
    if (!found) throw new DomainError(ERROR_CODES.NOT_FOUND, "organization not found");
    const [overview, refunds] = await Promise.all([
      deps.billing.overview(organizationId, []),
      deps.billing.refunds(organizationId),
    ]);
    return { organization: found, overview, refunds };
  };
  return new Hono<SessionEnv>()
    .use("*", requireBilling(deps.billing))
    .use("*", requirePlatformPermission(deps, { billing: ["manage"] }))
    .get(organization, validate("param", organizationParamsSchema), async (c) =>
      c.json(await organizationView(c.req.valid("param").organizationId)),
    )
    .post(
      `${organization}/refunds`,
      validate("param", organizationParamsSchema),
      validate("json", refundBodySchema),
      async (c) => {
        const { organizationId } = c.req.valid("param");
        await organizationView(organizationId);
        return c.json(await deps.billing.refund(organizationId, c.req.valid("json"), requestAuditContext(c)));
      },
    )
    .post(
      `${organization}/subscription/cancel`,
      validate("param", organizationParamsSchema),
      validate("json", operatorCancellationBodySchema),
      async (c) => {
        const { organizationId } = c.req.valid("param");
        await organizationView(organizationId);
        await deps.billing.endSubscription(organizationId, c.req.valid("json"), requestAuditContext(c));
        return c.json(await organizationView(organizationId));
      },
    )
    .post(`${organization}/reconcile`, validate("param", organizationParamsSchema), async (c) => {
      const { organizationId } = c.req.valid("param");
      await organizationView(organizationId);
      await deps.billing.reconcile(organizationId);
      return c.json(await deps.billing.overview(organizationId, []));
    });
}

export type BillingRoutes = ReturnType<typeof billingRoutes>;
export type AdminBillingRoutes = ReturnType<typeof adminBillingRoutes>;
