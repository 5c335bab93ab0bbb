import { z } from "zod";
import { idSchema } from "./account.schemas";
import { ADMIN_DEFAULT_PAGE_SIZE, ADMIN_PAGE_SIZES, calendarDaySchema } from "./admin.schemas";

/**
 * Every event the audit log records: each change a platform admin makes, each organization change, and the
 * billing changes asked of the provider. The web app words each one; the server stores the key.
 */
export const AUDIT_ACTIONS = [
  "user.created",
  "user.role_changed",
  "user.banned",
  "user.unbanned",
  "user.password_set",
  "user.email_changed",
  "user.impersonation_started",
  "user.impersonation_stopped",
  "user.session_revoked",
  "user.sessions_revoked",
  "user.deleted",
  "user.two_factor_reset",
  "organization.created",
  "organization.updated",
  "organization.deleted",
  "organization.owner_assigned",
  "organization.security_changed",
  "organization.sso_provider_registered",
  "organization.sso_provider_updated",
  "organization.sso_provider_deleted",
  "organization.sso_domain_verified",
  "organization.scim_token_created",
  "organization.scim_token_rotated",
  "organization.scim_token_revoked",
  "organization.webhook_created",
  "organization.webhook_updated",
  "organization.webhook_deleted",
  "organization.webhook_secret_rotated",
  "organization.api_key_created",
  "organization.api_key_revoked",
  "member.added",
  "member.removed",
  "member.role_changed",
  "member.left",
  "member.profile_updated",
  "invitation.sent",
  "invitation.resent",
  "invitation.accepted",
  "invitation.rejected",
  "invitation.canceled",
  "team.created",
  "team.renamed",
  "team.removed",
  "team.member_added",
  "team.member_removed",
  "billing.checkout_started",
  "billing.plan_changed",
  "billing.seats_changed",
  "billing.subscription_canceled",
  "billing.subscription_resumed",
  "billing.refund_issued",
  "billing.usage_reported",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  "user",
  "organization",
  "invitation",
  "team",
  "subscription",
  "order",
  "api_key",
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * What acted: a person, an organization API key, a directory's SCIM token, or the command line (`npm run admin`).
 */
export const AUDIT_ACTOR_TYPES = ["user", "api_key", "scim_token", "command_line"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * Who did it, labelled as they were then: a user by id with their e-mail; an API key by id with its name and first
 * characters ("CI deploys (atr_Gz2k9Q…)"); a SCIM token by its name (no id); the command line (no id).
 */
export type AuditActor = { type: AuditActorType; id: string | null; label: string };

/** One entry as both views show it; labels are what the names were when it happened, since people and organizations go. */
export type AuditEntry = {
  id: string;
  createdAt: string;
  action: AuditAction;
  actor: AuditActor;
  /** The platform admin browsing as `actor` when it happened. */
  impersonator: { id: string; label: string } | null;
  target: { type: AuditTargetType; id: string; label: string | null } | null;
  organization: { id: string; name: string | null } | null;
  ipAddress: string | null;
  userAgent: string | null;
  reason: string | null;
  /** What changed, by action: `{ from, to }` of a role, the ban's `expiresAt`, the fields of an update. */
  details: Record<string, unknown> | null;
};
export type AuditLogPage = { entries: AuditEntry[]; total: number; limit: number; offset: number };

/** Filters of the platform admins' view; an organization's own view takes the same, without `organizationId`. */
export const auditLogQuerySchema = z
  .object({
    action: z.enum(AUDIT_ACTIONS).optional(),
    actorId: idSchema.optional(),
    targetId: idSchema.optional(),
    organizationId: idSchema.optional(),
    from: calendarDaySchema.optional(),
    to: calendarDaySchema.optional(),
    limit: z.coerce
      .number()
      .int()
      .refine(
        (value) => (ADMIN_PAGE_SIZES as readonly number[]).includes(value),
        `Use a page size of ${ADMIN_PAGE_SIZES.join(", ")}`,
      )
      .default(ADMIN_DEFAULT_PAGE_SIZE),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: "The start date must be on or before the end date",
    path: ["to"],
  });
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

/** The most rows one CSV export holds; narrower filters export the rest. */
export const AUDIT_EXPORT_MAX_ROWS = 50_000;
