import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from "../../common/audit.schemas";
import { formatDateTime } from "./format";

/**
 * The audit log in product language. The server stores an action's key (`user.banned`) and what changed in
 * `details`; both views (the admin console's and an organization's) word them here, so an action added to
 * `AUDIT_ACTIONS` fails the type check until it is worded.
 */

type Described = Pick<AuditEntry, "action" | "target" | "details" | "organization">;

/** What the action filter calls each action, grouped by what it acts on. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "user.created": "User created",
  "user.role_changed": "Platform role changed",
  "user.banned": "User banned",
  "user.unbanned": "Ban lifted",
  "user.password_set": "Password set",
  "user.email_changed": "Address changed",
  "user.impersonation_started": "Impersonation started",
  "user.impersonation_stopped": "Impersonation stopped",
  "user.session_revoked": "Session revoked",
  "user.sessions_revoked": "All sessions revoked",
  "user.deleted": "User deleted",
  "user.two_factor_reset": "Second factors reset",
  "organization.created": "Organization created",
  "organization.updated": "Organization updated",
  "organization.deleted": "Organization deleted",
  "organization.owner_assigned": "Owner assigned",
  "organization.security_changed": "Security policy changed",
  "organization.sso_provider_registered": "Single sign-on provider added",
  "organization.sso_provider_updated": "Single sign-on provider changed",
  "organization.sso_provider_deleted": "Single sign-on provider removed",
  "organization.sso_domain_verified": "Single sign-on domain verified",
  "organization.scim_token_created": "Directory sync token created",
  "organization.scim_token_rotated": "Directory sync token rotated",
  "organization.scim_token_revoked": "Directory sync token revoked",
  "organization.webhook_created": "Webhook endpoint added",
  "organization.webhook_updated": "Webhook endpoint changed",
  "organization.webhook_deleted": "Webhook endpoint removed",
  "organization.webhook_secret_rotated": "Webhook secret rotated",
  "organization.api_key_created": "Created API key",
  "organization.api_key_revoked": "Revoked API key",
  "member.added": "Member added",
  "member.removed": "Member removed",
  "member.role_changed": "Member role changed",
  "member.left": "Member left",
  "member.profile_updated": "Member profile updated",
  "invitation.sent": "Invitation sent",
  "invitation.resent": "Invitation resent",
  "invitation.accepted": "Invitation accepted",
  "invitation.rejected": "Invitation declined",
  "invitation.canceled": "Invitation canceled",
  "team.created": "Team created",
  "team.renamed": "Team renamed",
  "team.removed": "Team deleted",
  "team.member_added": "Added to a team",
  "team.member_removed": "Removed from a team",
  "billing.checkout_started": "Checkout started",
  "billing.plan_changed": "Plan changed",
  "billing.seats_changed": "Seats changed",
  "billing.subscription_canceled": "Subscription canceled",
  "billing.subscription_resumed": "Subscription resumed",
  "billing.refund_issued": "Refund issued",
  "billing.usage_reported": "Usage reported",
};

const GROUPS = {
  user: "Users",
  organization: "Organization",
  member: "Members",
  invitation: "Invitations",
  team: "Teams",
  billing: "Billing",
} as const;
type Group = keyof typeof GROUPS;

/** The actions by group, in `AUDIT_ACTIONS` order, for a filter's `<optgroup>`s; `exclude` drops whole groups. */
export function auditActionGroups(exclude: readonly Group[] = []): Array<{ label: string; actions: AuditAction[] }> {
  return (Object.keys(GROUPS) as Group[])
    .filter((group) => !exclude.includes(group))
    .map((group) => ({
      label: GROUPS[group],
      actions: AUDIT_ACTIONS.filter((action) => action.startsWith(`${group}.`)),
    }));
}

/** A string or number field of `details`, as text. */
function detail(entry: Described, key: string): string | undefined {
  const value = entry.details?.[key];
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/** "the single sign-on provider acme" when the entry names it. */
/** The directory sync token an entry is about, by its name. */
function scimToken(entry: Described): string {
  const name = detail(entry, "tokenName");
  return name ? `the directory sync token ${name}` : "a directory sync token";
}

function ssoProvider(entry: Described): string {
  const providerId = detail(entry, "providerId");
  return providerId ? `the single sign-on provider ${providerId}` : "a single sign-on provider";
}

/** "the webhook endpoint https://…" when the entry names its URL. */
function webhookEndpoint(entry: Described): string {
  const url = detail(entry, "url");
  return url ? `the webhook endpoint ${url}` : "a webhook endpoint";
}

/** " for example.com" when the entry names the provider's domain. */
function forDomain(entry: Described): string {
  const domain = detail(entry, "domain");
  return domain ? ` for ${domain}` : "";
}

/** "name, URL and logo". */
function listWords(words: string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "");
}

/** A role as stored ("admin,owner") in words ("admin and owner"). */
function roleWords(role: string): string {
  return (
    listWords(
      role
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    ) || role
  );
}

/** " from member to admin" when `details` holds both ends of a change (roles worded by `word`), else nothing. */
function fromTo(entry: Described, word: (value: string) => string = (value) => value): string {
  const from = detail(entry, "from");
  const to = detail(entry, "to");
  return from !== undefined && to !== undefined ? ` from ${word(from)} to ${word(to)}` : "";
}

/** The target's name as it was then; entries about something that had none say what it was. */
function target(entry: Described, fallback: string): string {
  return entry.target?.label || fallback;
}

/** "team Design" when the target has a name, else `fallback` ("a team"). */
function named(entry: Described, noun: string, fallback: string): string {
  return entry.target?.label ? `${noun} ${entry.target.label}` : fallback;
}

/** An amount in minor units (cents) in its currency: "$12.50". */
function money(amount: number, currency: string): string {
  const format = new Intl.NumberFormat(undefined, { style: "currency", currency: currency.toUpperCase() });
  return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** "the organization Acme": its name then, from the target or the entry's organization. */
function organizationName(entry: Described): string {
  const name = entry.target?.label || entry.organization?.name;
  return name ? `the organization ${name}` : "an organization";
}

/** The fields `organization.updated` may name, in words. */
const ORGANIZATION_FIELDS: Record<string, string> = { name: "name", slug: "URL", logo: "logo", metadata: "details" };

function organizationUpdate(entry: Described): string {
  const name = entry.details?.name;
  if (name && typeof name === "object" && "from" in name && "to" in name)
    return `Renamed the organization from ${String(name.from)} to ${String(name.to)}`;
  // `details` lists the changed fields, either as `fields: [...]` or as its own keys.
  const fields = entry.details?.fields;
  const keys = Array.isArray(fields) ? fields.map(String) : Object.keys(entry.details ?? {});
  const words = keys.flatMap((key) => ORGANIZATION_FIELDS[key] ?? []);
  return words.length > 0 ? `Changed the organization's ${listWords(words)}` : "Updated the organization's settings";
}

function teamMembership(entry: Described, verb: "Added" | "Removed", preposition: "to" | "from"): string {
  const team = detail(entry, "team");
  return `${verb} ${target(entry, "a member")} ${preposition} ${team ? `team ${team}` : "a team"}`;
}

const SENTENCES: Record<AuditAction, (entry: Described) => string> = {
  "user.created": (entry) =>
    `Created ${named(entry, "user", "a user")}` +
    (detail(entry, "role") === "admin" ? " as a platform admin" : "") +
    (detail(entry, "password") === "invited" ? ", invited to set a password" : ""),
  "user.role_changed": (entry) => `Changed the platform role of ${target(entry, "a user")}${fromTo(entry, roleWords)}`,
  "user.banned": (entry) => {
    const user = target(entry, "a user");
    if (!entry.details || !("expiresAt" in entry.details)) return `Banned ${user}`;
    const expiresAt = detail(entry, "expiresAt");
    return expiresAt ? `Banned ${user} until ${formatDateTime(expiresAt)}` : `Banned ${user} permanently`;
  },
  "user.unbanned": (entry) => `Lifted the ban on ${target(entry, "a user")}`,
  "user.password_set": (entry) => `Set a new password for ${target(entry, "a user")}`,
  "user.email_changed": (entry) => `Changed the e-mail address of ${target(entry, "a user")}${fromTo(entry)}`,
  "user.impersonation_started": (entry) => `Started impersonating ${target(entry, "a user")}`,
  "user.impersonation_stopped": (entry) => `Stopped impersonating ${target(entry, "a user")}`,
  "user.session_revoked": (entry) => `Signed ${target(entry, "a user")} out of one session`,
  "user.sessions_revoked": (entry) => `Signed ${target(entry, "a user")} out everywhere`,
  "user.deleted": (entry) => `Deleted ${named(entry, "user", "a user")}`,
  "user.two_factor_reset": (entry) => `Reset the second factors of ${target(entry, "a user")}`,
  "organization.created": (entry) => `Created ${organizationName(entry)}`,
  "organization.updated": organizationUpdate,
  "organization.deleted": (entry) => `Deleted ${organizationName(entry)}`,
  "organization.owner_assigned": (entry) => `Made ${target(entry, "a user")} an owner of the organization`,
  "organization.security_changed": (entry) => {
    const sentences: string[] = [];
    if (entry.details?.requireTwoFactor === true) sentences.push("Required a second factor of every member");
    if (entry.details?.requireTwoFactor === false) sentences.push("Stopped requiring a second factor of members");
    if (entry.details?.requireSso === true) sentences.push("Required SSO on the organization's verified domains");
    if (entry.details?.requireSso === false) sentences.push("Stopped requiring SSO");
    return sentences.join("; ") || "Changed the security policy";
  },
  "organization.sso_provider_registered": (entry) => `Added ${ssoProvider(entry)}${forDomain(entry)}`,
  "organization.sso_provider_updated": (entry) => `Changed ${ssoProvider(entry)}`,
  "organization.sso_provider_deleted": (entry) => `Removed ${ssoProvider(entry)}${forDomain(entry)}`,
  "organization.webhook_created": (entry) => `Added ${webhookEndpoint(entry)}`,
  "organization.webhook_updated": (entry) => `Changed ${webhookEndpoint(entry)}`,
  "organization.webhook_deleted": (entry) => `Removed ${webhookEndpoint(entry)}`,
  "organization.webhook_secret_rotated": (entry) => `Rotated the signing secret of ${webhookEndpoint(entry)}`,
  "organization.sso_domain_verified": (entry) =>
    `Verified ${detail(entry, "domain") ? `the domain ${detail(entry, "domain")}` : "a domain"} for single sign-on`,
  "organization.scim_token_created": (entry) => `Created ${scimToken(entry)}`,
  "organization.scim_token_rotated": (entry) => `Rotated ${scimToken(entry)}`,
  "organization.scim_token_revoked": (entry) => `Revoked ${scimToken(entry)}`,
  "organization.api_key_created": (entry) => `Created ${named(entry, "API key", "an API key")}`,
  "organization.api_key_revoked": (entry) => `Revoked ${named(entry, "API key", "an API key")}`,
  "member.added": (entry) => {
    const role = detail(entry, "role");
    return `Added ${target(entry, "a member")}${role ? ` as ${roleWords(role)}` : ""}`;
  },
  "member.removed": (entry) => `Removed ${target(entry, "a member")} from the organization`,
  "member.role_changed": (entry) => `Changed the role of ${target(entry, "a member")}${fromTo(entry, roleWords)}`,
  "member.left": () => "Left the organization",
  "member.profile_updated": (entry) => `Updated the directory profile of ${target(entry, "a member")}`,
  "invitation.sent": (entry) => {
    const role = detail(entry, "role");
    return `Sent invitation to ${target(entry, "someone")}${role ? ` as ${roleWords(role)}` : ""}`;
  },
  "invitation.resent": (entry) => `Resent invitation to ${target(entry, "someone")}`,
  "invitation.accepted": (entry) =>
    entry.target?.label ? `Accepted the invitation sent to ${entry.target.label}` : "Accepted an invitation",
  "invitation.rejected": (entry) =>
    entry.target?.label ? `Declined the invitation sent to ${entry.target.label}` : "Declined an invitation",
  "invitation.canceled": (entry) => `Canceled the invitation to ${target(entry, "someone")}`,
  "team.created": (entry) => `Created ${named(entry, "team", "a team")}`,
  "team.renamed": (entry) => {
    const change = fromTo(entry);
    return change ? `Renamed team${change}` : `Renamed ${named(entry, "team", "a team")}`;
  },
  "team.removed": (entry) => `Deleted ${named(entry, "team", "a team")}`,
  "team.member_added": (entry) => teamMembership(entry, "Added", "to"),
  "team.member_removed": (entry) => teamMembership(entry, "Removed", "from"),
  "billing.checkout_started": (entry) => {
    const plan = detail(entry, "plan");
    return plan ? `Started a checkout for the ${plan} plan` : "Started a checkout";
  },
  "billing.plan_changed": (entry) => `Changed the plan${fromTo(entry)}`,
  "billing.seats_changed": (entry) => `Changed the number of seats${fromTo(entry)}`,
  "billing.subscription_canceled": (entry) =>
    detail(entry, "when") === "now" ? "Ended the subscription at once" : "Canceled the subscription",
  "billing.subscription_resumed": () => "Resumed the subscription",
  "billing.refund_issued": (entry) => {
    const amount = entry.details?.amount;
    const currency = detail(entry, "currency");
    return typeof amount === "number" && currency ? `Refunded ${money(amount, currency)}` : "Issued a refund";
  },
  "billing.usage_reported": (entry) => {
    const quantity = entry.details?.quantity;
    const meter = detail(entry, "meter");
    return typeof quantity === "number" && meter ? `Reported ${quantity} ${meter}` : "Reported usage";
  },
};

/** The sentence for one entry: "Banned ann@example.com until 5 Mar 2026, 10:00", "Renamed team from Design to Product". */
export function describeAuditEntry(entry: Described): string {
  return SENTENCES[entry.action](entry);
}
