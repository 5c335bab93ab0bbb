import type { ColumnType, Generated } from "kysely";
import type { AuditActorType } from "../../common/audit.schemas";

/**
 * Row types for the tables the app queries itself. better-auth's tables keep the camelCase names
 * better-auth gives them; the app's own tables use snake_case (see docs/decisions/0002).
 * Dates are ISO strings on SQLite and Date objects on PostgreSQL; the repositories normalise them.
 */
type Timestamp = ColumnType<Date | string, Date | string, Date | string>;

export type UserTable = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  username: string | null;
  displayUsername: string | null;
  role: string | null;
  banned: boolean | number | null;
  banReason: string | null;
  banExpires: Timestamp | null;
  twoFactorEnabled: Generated<boolean | number | null>;
};

/** A user's TOTP secret and backup codes (better-auth's two-factor plugin), both encrypted with the auth secret. */
export type TwoFactorTable = {
  id: string;
  secret: string;
  backupCodes: string;
  userId: string;
  verified: Generated<boolean | number | null>;
  failedVerificationCount: Generated<number | null>;
  lockedUntil: Timestamp | null;
  /** The last TOTP time step a code was accepted for (migration 0014): older and equal steps are refused. */
  lastTotpStep: number | null;
};

/** A WebAuthn credential (@better-auth/passkey): the public key, the signature counter, the authenticator model. */
export type PasskeyTable = {
  id: string;
  name: string | null;
  publicKey: string;
  userId: string;
  credentialID: string;
  counter: number;
  deviceType: string;
  backedUp: boolean | number;
  transports: string | null;
  createdAt: Timestamp | null;
  aaguid: string | null;
  /** When it last signed someone in (server/auth/passkey-rules.ts); null until then. */
  lastUsedAt: Timestamp | null;
};

export type SessionTable = {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  activeOrganizationId: string | null;
  activeTeamId: string | null;
  impersonatedBy: string | null;
  /** The last re-check of this session (server/auth/fresh-authentication.ts); null until one. */
  reauthenticatedAt: Timestamp | null;
};

/** better-auth's short-lived values (links' tokens); the app keeps the sessions a ban signed out here too. */
export type VerificationTable = {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

/** A way to sign in: `credential` (the password) or a provider's identity, with the e-mail it last asserted. */
export type AccountTable = {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  password: string | null;
  accessToken: string | null;
  refreshToken: string | null;
  email: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type MemberTable = {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: Timestamp;
};

export type OrganizationTable = {
  id: string;
  name: string;
  slug: string;
  logo: string | null;
  createdAt: Timestamp;
  metadata: string | null;
  /** The security policy (migration 0017): members without a second factor are refused the organization. */
  requireTwoFactor: Generated<boolean | number>;
  /** Enterprise SSO policy (migration 0018): password sign-in on the organization's verified domains is refused. */
  requireSso: Generated<boolean | number>;
  allowDomainJoin: Generated<boolean | number>;
};

export type TeamTable = {
  id: string;
  name: string;
  memberCount: number;
  organizationId: string;
  createdAt: Timestamp;
  updatedAt: Timestamp | null;
};

export type TeamMemberTable = {
  id: string;
  teamId: string;
  userId: string;
  membershipKey: string | null;
  createdAt: Timestamp | null;
};

export type InvitationTable = {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  teamId: string | null;
  status: "pending" | "accepted" | "rejected" | "canceled";
  expiresAt: Timestamp;
  createdAt: Timestamp;
  /** Null when an API key sent it (migration 0025): the organization invites. */
  inviterId: string | null;
};

export type MailOutboxTable = {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: "pending" | "sending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
};

export type DevMailboxTable = {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: Timestamp;
};

/** better-auth's rate-limit counters (used by our own database store); `lastRequest` is epoch milliseconds, a string from PostgreSQL's bigint. */
export type RateLimitTable = { id: string; key: string; count: number; lastRequest: number | string };

/** The organization as a billing customer: its provider customer id and the last customer state the provider sent. */
export type BillingCustomerTable = {
  organization_id: string;
  customer_id: string | null;
  /** The provider's CustomerState (JSON): granted benefits and meters. */
  state: string | null;
  /** When that state was true at the provider (ISO text), so an older one never replaces it. */
  state_at: string | null;
  /** `{ brand, last4 }` (JSON) of the card the provider reports, or null. */
  payment_method: string | null;
  synced_at: Timestamp | null;
  created_at: Timestamp;
};

/** The projection of one provider object (subscription, order, refund, checkout) as the provider last sent it. */
export type BillingObjectTable = {
  kind: "subscription" | "order" | "refund" | "checkout";
  id: string;
  organization_id: string;
  /** The provider's `modified_at` (or `created_at`), normalised ISO text: the newer write wins. */
  modified_at: string;
  created_at: string;
  data: string;
};

export type BillingWebhookEventTable = {
  /** The delivery's `webhook-id`: the same across the provider's retries, so a repeat is not applied twice. */
  id: string;
  type: string;
  payload: string;
  status: "pending" | "applied" | "ignored" | "failed";
  attempts: number;
  next_attempt_at: Timestamp;
  last_error: string | null;
  organization_id: string | null;
  received_at: Timestamp;
  applied_at: Timestamp | null;
};

export type BillingUsageEventTable = {
  id: string;
  organization_id: string;
  idempotency_key: string;
  event_name: string;
  quantity: number;
  status: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
};

/** The app's running count of one meter's usage in one billing period (migration 0012). */
export type BillingUsageCountTable = {
  organization_id: string;
  meter_id: string;
  period_start: string;
  /** A bigint: PostgreSQL's driver answers it as a string. */
  quantity: ColumnType<number | string, number, number>;
};

/** One audit log entry (docs/decisions/0010); `details` is JSON. */
export type AuditEventTable = {
  id: string;
  created_at: Timestamp;
  action: string;
  /** What acted (migration 0025): a person, an API key, a directory's SCIM token, the command line. */
  actor_type: Generated<AuditActorType>;
  actor_id: string | null;
  actor_label: string;
  impersonator_id: string | null;
  impersonator_label: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  organization_id: string | null;
  organization_name: string | null;
  ip_address: string | null;
  user_agent: string | null;
  reason: string | null;
  details: string | null;
};

/** Written only by the triggers of migration 0009; read by the read cache (server/db/read-cache.ts). */
export type CacheInvalidationTable = {
  /** A bigserial on PostgreSQL, which the driver hands back as a string. */
  id: Generated<number | string>;
  user_id: string | null;
  organization_id: string | null;
  /** Seconds since the epoch, set by the database. */
  created_at: Generated<number | string>;
};

/** A job only one instance runs at a time, and when it is next due (migration 0011, server/jobs/job-schedule.ts). */
export type JobScheduleTable = {
  name: string;
  next_run_at: Timestamp;
  claim: string | null;
};

/** An organization's identity provider (@better-auth/sso's table, migration 0018); configs are JSON text. */
export type SsoProviderTable = {
  id: string;
  issuer: string;
  oidcConfig: string | null;
  samlConfig: string | null;
  userId: string | null;
  providerId: string;
  organizationId: string | null;
  domain: string;
  domainVerified: Generated<boolean | number>;
  /** The value of the TXT record to publish, until the domain is verified. */
  domainVerificationToken: string | null;
  /** The first sign-in through it since it was registered or last changed (migration 0023); null until then. */
  firstSignInAt: Timestamp | null;
};

/** An organization's SCIM directory connection and its bearer token's digest (migration 0019). */
export type ScimTokenTable = {
  id: string;
  organization_id: string;
  name: string;
  token_hash: string;
  created_by: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
};

/** A person a directory provisioned into an organization: the SCIM User resource (migration 0019). */
export type ScimUserTable = {
  id: string;
  organization_id: string;
  user_id: string;
  user_name: string;
  user_name_key: string;
  external_id: string | null;
  email: string;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
  active: boolean | number;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** A team a directory created: the SCIM Group resource, whose id is the team's (migration 0019). */
export type ScimGroupTable = {
  team_id: string;
  organization_id: string;
  external_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** An organization's API key (migration 0020); `scopes` is a JSON array, `key_hash` the secret's SHA-256. */
export type ApiKeyTable = {
  id: string;
  organization_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
};

export type Database = {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  member: MemberTable;
  organization: OrganizationTable;
  team: TeamTable;
  teamMember: TeamMemberTable;
  invitation: InvitationTable;
  mail_outbox: MailOutboxTable;
  dev_mailbox: DevMailboxTable;
  rateLimit: RateLimitTable;
  billing_customer: BillingCustomerTable;
  billing_object: BillingObjectTable;
  billing_webhook_event: BillingWebhookEventTable;
  billing_usage_event: BillingUsageEventTable;
  billing_usage_count: BillingUsageCountTable;
  audit_event: AuditEventTable;
  cache_invalidation: CacheInvalidationTable;
  job_schedule: JobScheduleTable;
  twoFactor: TwoFactorTable;
  passkey: PasskeyTable;
  ssoProvider: SsoProviderTable;
  api_key: ApiKeyTable;
  scim_token: ScimTokenTable;
  scim_user: ScimUserTable;
  scim_group: ScimGroupTable;
  webhook_endpoint: WebhookEndpointTable;
  webhook_message: WebhookMessageTable;
  webhook_attempt: WebhookAttemptTable;
  dev_webhook_receipt: DevWebhookReceiptTable;
};

/** An organization's outbound webhook endpoint (migration 0021); `events` is a JSON array of event types. */
export type WebhookEndpointTable = {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  events: string;
  enabled: boolean | number;
  /** Why the app turned it off: `gone` (the endpoint answered 410) or `failing` (days of failed deliveries). */
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
  /** The first failed attempt since the last delivered one. */
  failing_since: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** One event to deliver to one endpoint (the webhooks' outbox); `seq` orders an endpoint's messages. */
export type WebhookMessageTable = {
  seq: Generated<number>;
  id: string;
  endpoint_id: string;
  event_type: string;
  /** The exact body sent: `{ type, timestamp, data }`. */
  payload: string;
  status: "pending" | "delivering" | "delivered" | "failed";
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  created_at: Timestamp;
  finished_at: Timestamp | null;
};

/** One attempt to deliver a message: the answer's status and the start of its body, or the error. */
export type WebhookAttemptTable = {
  id: string;
  message_id: string;
  endpoint_id: string;
  attempt: number;
  attempted_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  response_excerpt: string | null;
  error: string | null;
};

/**
 * What the development webhook receiver (/dev/webhooks) was sent; purged with the delivery history after
 * `WEBHOOK_RETENTION_DAYS` (migration 0028 indexes `received_at`).
 */
export type DevWebhookReceiptTable = {
  id: string;
  received_at: Timestamp;
  headers: string;
  body: string;
  verified: boolean | number;
};
