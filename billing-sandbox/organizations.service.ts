import type { z } from "zod";
import type { SandboxContext } from "./context";
import { serializeOrganization } from "./organizations.serializers";
import type { OrganizationRecord } from "./records";
import { customerEmailSettingNames, type organizationUpdateSchema } from "./schemas";
import { newId } from "./shared";
import type { Store } from "./store";

/** The provider organization the sandbox plays: one merchant account, its settings, and organization.updated. */

const SETTING_KEY = "organization";

type Identity = Pick<OrganizationRecord, "id" | "slug" | "created_at">;

/** An organization with the provider's default settings, except where the sandbox behaves otherwise (noted). */
function withDefaultSettings(identity: Identity): OrganizationRecord {
  return {
    ...identity,
    modified_at: null,
    name: "Sandbox Merchant",
    avatar_url: null,
    email: null,
    website: null,
    socials: [],
    country: null,
    default_presentment_currency: "usd",
    // The sandbox's checkouts add tax on top of the price (at 0%), so it says exclusive rather than the provider's "location".
    default_tax_behavior: "exclusive",
    sso_enforced: false,
    embed_hosts: [],
    feature_settings: {
      issue_funding_enabled: false,
      // Seat-based prices are on sale (the Team plans); members, wallets and disputes do not exist here.
      seat_based_pricing_enabled: true,
      wallets_enabled: false,
      member_model_enabled: false,
      checkout_localization_enabled: false,
      overview_metrics: null,
      reset_proration_behavior_enabled: false,
      off_session_charges_enabled: false,
      meter_cycling_enabled: false,
      slack_benefit_enabled: false,
      preview_access_enabled: false,
      disputes_enabled: false,
      sso_enabled: false,
      dispute_auto_accept_enabled: false,
      compass_enabled: false,
      merchant_migration_enabled: false,
    },
    subscription_settings: {
      // The provider's default is false, but the sandbox never refuses a second subscription, so it says true.
      allow_multiple_subscriptions: true,
      proration_behavior: "prorate",
      benefit_revocation_grace_period: 0,
      prevent_trial_abuse: false,
      allow_customer_updates: true,
    },
    customer_email_settings: Object.fromEntries(customerEmailSettingNames.map((name) => [name, true])),
    customer_portal_settings: {
      usage: { show: true },
      subscription: { update_seats: true, update_plan: true },
      customer: { allow_email_change: false },
    },
    dispute_settings: { auto_accept_below_amount: null },
  };
}

/**
 * The stored organization, or a new one. A file written before the settings existed holds only the identity;
 * the defaults fill in the rest, as the provider completes settings added after an organization last saved them.
 */
export function loadOrganization(store: Store, now: string): OrganizationRecord {
  const stored = store.getSetting(SETTING_KEY);
  if (!stored) return withDefaultSettings({ id: newId(), slug: "sandbox-merchant", created_at: now });
  const organization = JSON.parse(stored) as OrganizationRecord;
  return { ...withDefaultSettings(organization), ...organization };
}

export function saveOrganization(ctx: SandboxContext, organization: OrganizationRecord): void {
  ctx.store.setSetting(SETTING_KEY, JSON.stringify(organization));
  ctx.organization = organization;
}

/** A reset keeps the organization's id (the app stores it) and starts its settings over like everything else. */
export const resetOrganization = (organization: OrganizationRecord): OrganizationRecord =>
  withDefaultSettings(organization);

/**
 * OrganizationUpdate: a settings object replaces the stored one whole (the schema requires all its keys), feature
 * flags merge into the stored ones, a nullable field given as null is cleared, and any other null changes nothing.
 */
export function updateOrganization(
  ctx: SandboxContext,
  input: z.infer<typeof organizationUpdateSchema>,
): OrganizationRecord {
  const current = ctx.organization;
  const clearable = <T>(value: T | null | undefined, fallback: T | null) => (value === undefined ? fallback : value);
  const updated: OrganizationRecord = {
    ...current,
    name: input.name ?? current.name,
    avatar_url: clearable(input.avatar_url, current.avatar_url),
    email: clearable(input.email, current.email),
    website: clearable(input.website, current.website),
    country: clearable(input.country, current.country),
    socials: input.socials ?? current.socials,
    feature_settings: { ...current.feature_settings, ...input.feature_settings },
    subscription_settings: input.subscription_settings ?? current.subscription_settings,
    customer_email_settings: input.customer_email_settings ?? current.customer_email_settings,
    customer_portal_settings: input.customer_portal_settings ?? current.customer_portal_settings,
    dispute_settings: input.dispute_settings
      ? { auto_accept_below_amount: input.dispute_settings.auto_accept_below_amount ?? null }
      : current.dispute_settings,
    embed_hosts: input.embed_hosts ?? current.embed_hosts,
    default_presentment_currency: input.default_presentment_currency ?? current.default_presentment_currency,
    default_tax_behavior: input.default_tax_behavior ?? current.default_tax_behavior,
    sso_enforced: input.sso_enforced ?? current.sso_enforced,
    modified_at: ctx.clock.iso(),
  };
  ctx.webhooks.emit("organization.updated", serializeOrganization(updated));
  // Last, so a failed write (the route's transaction rolls back) leaves the organization in memory unchanged too.
  saveOrganization(ctx, updated);
  return updated;
}
