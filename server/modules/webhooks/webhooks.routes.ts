import { Hono, type Context } from "hono";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { WEBHOOK_ERROR_CODES } from "../../../common/error-codes";
import { rolesAllow } from "../../../common/permissions";
import {
  createWebhookSchema,
  updateWebhookSchema,
  webhookDeliveryParamsSchema,
  webhookParamsSchema,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
  type WebhookSecret,
} from "../../../common/webhook.schemas";
import type { Database } from "../../db/schema";
import type { GetSession } from "../../http/app-env";
import { validate } from "../../http/validate";
import { requestAuditContext } from "../audit";
import { requireOrganizationScope, type ScopedEnv } from "../organizations";
import type { AddressPolicy } from "./webhooks.address";
import * as service from "./webhooks.service";
import { organizationParamsSchema } from "../../../common/organization.schemas";

/** The organization's owners and admins (who may update it) manage its webhooks; anyone else gets one answer. */
function requireWebhookAdmin(c: Context<ScopedEnv>): service.WebhookScope {
  const scope = c.get("scope");
  if (!rolesAllow(scope.roles.join(","), { organization: ["update"] }))
    throw DomainError.of(WEBHOOK_ERROR_CODES.WEBHOOK_ADMIN_REQUIRED);
  return { organizationId: scope.organizationId };
}

/**
 * An organization's outbound webhooks (mounted at /api/organizations, docs/webhooks.md): endpoints, their secrets, the
 * delivery log, redelivery and a test event. Owners and admins only; every change is audited.
 */
export function webhookRoutes(deps: {
  getSession: GetSession;
  db: Kysely<Database>;
  policy: AddressPolicy;
  nudge: () => void;
}) {
  const serviceDeps: service.WebhookDeps = { db: deps.db, policy: deps.policy, nudge: deps.nudge };
  return new Hono<ScopedEnv>()
    .use("/:organizationId/webhooks", validate("param", organizationParamsSchema), requireOrganizationScope(deps))
    .use("/:organizationId/webhooks/*", validate("param", organizationParamsSchema), requireOrganizationScope(deps))
    .get("/:organizationId/webhooks", async (c) =>
      c.json((await service.listWebhooks(deps.db, requireWebhookAdmin(c))) satisfies WebhookEndpoint[]),
    )
    .post("/:organizationId/webhooks", validate("json", createWebhookSchema), async (c) => {
      const scope = requireWebhookAdmin(c);
      const created = await service.createWebhook(serviceDeps, scope, c.req.valid("json"), requestAuditContext(c));
      return c.json(created satisfies WebhookSecret, 201);
    })
    .get("/:organizationId/webhooks/:webhookId", validate("param", webhookParamsSchema), async (c) => {
      const scope = requireWebhookAdmin(c);
      return c.json(
        (await service.getWebhook(deps.db, scope, c.req.valid("param").webhookId)) satisfies WebhookEndpoint,
      );
    })
    .patch(
      "/:organizationId/webhooks/:webhookId",
      validate("param", webhookParamsSchema),
      validate("json", updateWebhookSchema),
      async (c) => {
        const scope = requireWebhookAdmin(c);
        const { webhookId } = c.req.valid("param");
        const updated = await service.updateWebhook(
          serviceDeps,
          scope,
          webhookId,
          c.req.valid("json"),
          requestAuditContext(c),
        );
        return c.json(updated satisfies WebhookEndpoint);
      },
    )
    .delete("/:organizationId/webhooks/:webhookId", validate("param", webhookParamsSchema), async (c) => {
      const scope = requireWebhookAdmin(c);
      await service.deleteWebhook(deps.db, scope, c.req.valid("param").webhookId, requestAuditContext(c));
      return c.body(null, 204);
    })
    .get("/:organizationId/webhooks/:webhookId/secret", validate("param", webhookParamsSchema), async (c) => {
      const scope = requireWebhookAdmin(c);
      const secret = await service.getWebhookSecret(deps.db, scope, c.req.valid("param").webhookId);
      c.header("Cache-Control", "no-store");
      return c.json(secret satisfies WebhookSecret);
    })
    .post("/:organizationId/webhooks/:webhookId/rotate-secret", validate("param", webhookParamsSchema), async (c) => {
      const scope = requireWebhookAdmin(c);
      const { webhookId } = c.req.valid("param");
      const rotated = await service.rotateWebhookSecret(deps.db, scope, webhookId, requestAuditContext(c));
      return c.json(rotated satisfies WebhookSecret);
    })
    .post("/:organizationId/webhooks/:webhookId/test", validate("param", webhookParamsSchema), async (c) => {
      const scope = requireWebhookAdmin(c);
      return c.json(await service.sendTestEvent(serviceDeps, scope, c.req.valid("param").webhookId), 202);
    })
    .get("/:organizationId/webhooks/:webhookId/deliveries", validate("param", webhookParamsSchema), async (c) => {
      const scope = requireWebhookAdmin(c);
      const attempts = await service.listDeliveries(deps.db, scope, c.req.valid("param").webhookId);
      return c.json(attempts satisfies WebhookDeliveryAttempt[]);
    })
    .post(
      "/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
      validate("param", webhookDeliveryParamsSchema),
      async (c) => {
        const scope = requireWebhookAdmin(c);
        const { webhookId, deliveryId } = c.req.valid("param");
        return c.json(await service.redeliver(serviceDeps, scope, webhookId, deliveryId), 202);
      },
    );
}

export type WebhookRoutes = ReturnType<typeof webhookRoutes>;
