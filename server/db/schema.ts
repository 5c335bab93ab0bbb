import type { ColumnType } from "kysely";

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
  inviterId: string;
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

export type Database = {
  user: UserTable;
  session: SessionTable;
  member: MemberTable;
  organization: OrganizationTable;
  team: TeamTable;
  teamMember: TeamMemberTable;
  invitation: InvitationTable;
  mail_outbox: MailOutboxTable;
  dev_mailbox: DevMailboxTable;
  rateLimit: RateLimitTable;
};
