import type { SandboxContext } from "./context";
import type { OrganizationRecord } from "./records";
import type { Json } from "./shared";

/** Organization: the stored settings plus what the sandbox always is (active, onboarded, fully capable). */
export function serializeOrganization(organization: OrganizationRecord): Json {
  return {
    ...organization,
    // The provider still sends these two at the top level, derived from the settings.
    proration_behavior: organization.subscription_settings.proration_behavior,
    allow_customer_updates: organization.customer_portal_settings.subscription.update_plan,
    status: "active",
    details_submitted_at: organization.created_at,
    onboarding_resubmission_requested_at: null,
    // The sandbox accepts any embed_origin, so it enforces no list.
    embed_hosts_enforced: false,
    account_id: null,
    payout_account_id: null,
    capabilities: {
      checkout_payments: true,
      subscription_renewals: true,
      payouts: true,
      refunds: true,
      api_access: true,
      dashboard_access: true,
    },
  };
}

/** The organization as buyers see it: CheckoutOrganization (in CheckoutPublic) and the portal's organizations. */
export function serializeOrganizationPublic(ctx: SandboxContext): Json {
  const { id, created_at, modified_at, name, slug, avatar_url, proration_behavior, allow_customer_updates } =
    serializeOrganization(ctx.organization);
  return { id, created_at, modified_at, name, slug, avatar_url, proration_behavior, allow_customer_updates };
}
