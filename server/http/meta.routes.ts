import { Hono } from "hono";
import type { AppMeta } from "../../common/meta.schemas";
import type { Config } from "../config";

/** What the web app needs to know about this server before anyone signs in: which optional features are on. */
export function metaRoutes(config: Config) {
  return new Hono().get("/", (c) =>
    c.json({
      devMailbox: config.mail.devMailbox,
      billingSandbox: config.billingSandbox,
      socialProviders: config.socialProviders.map(({ id, name }) => ({ id, name })),
      organizations: {
        whoMayCreate: config.organizations.whoMayCreate,
        isDeletionDisabled: config.organizations.isDeletionDisabled,
        limit: config.organizations.limit ?? null,
      },
      webhooks: { deliveryRetentionDays: config.webhooks.retentionDays },
    } satisfies AppMeta),
  );
}

export type MetaRoutes = ReturnType<typeof metaRoutes>;
