import type { Clock } from "./clock";
import { newId, type Json } from "./shared";
import type { Store } from "./store";
import type { WebhookDispatcher } from "./webhook-dispatcher";

/** The merchant account every object belongs to: the sandbox plays exactly one provider organization. */
export type Organization = { id: string; name: string; slug: string; created_at: string };

export type SandboxContext = {
  store: Store;
  clock: Clock;
  webhooks: WebhookDispatcher;
  organization: Organization;
  /** Absolute URL the sandbox is reachable at (no trailing slash); checkout and portal URLs start with it. */
  publicUrl: string;
  /** When set, organization API calls must carry exactly this bearer token. */
  accessToken: string | undefined;
};

export function loadOrganization(store: Store, now: string): Organization {
  const stored = store.getSetting("organization");
  if (stored) return JSON.parse(stored) as Organization;
  const organization = { id: newId(), name: "Sandbox Merchant", slug: "sandbox-merchant", created_at: now };
  store.setSetting("organization", JSON.stringify(organization));
  return organization;
}

/** The organization as buyers see it (nested in CheckoutPublic and the portal's objects). */
export function serializeOrganizationPublic(ctx: SandboxContext): Json {
  const { id, name, slug, created_at } = ctx.organization;
  return { id, name, slug, created_at, modified_at: null, avatar_url: null, proration_behavior: "prorate", allow_customer_updates: true };
}
