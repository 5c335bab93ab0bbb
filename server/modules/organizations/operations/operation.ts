import type { Kysely } from "kysely";
import type { LimitedResource } from "../../../../common/billing.schemas";
import { rolesAllow, type OrganizationPermissions } from "../../../../common/permissions";
import type { Database } from "../../../db/schema";
import type { AuditedCall, AuditedSession, AuditRecord } from "../../audit";
import { findMemberLabel, findMembership, lockOrganizations } from "../organizations.repository";

/**
 * An organization API key making the call (organizations.writes.ts): better-auth does not take it, so the operation
 * writes itself (`write`). It acts for its organization only, with no role: it is no owner.
 */
export type OperationKey = { id: string; name: string; prefix: string; organizationId: string };

/**
 * What an operation reads of a request: its body (parsed once, by the adapter, in the shape of better-auth's
 * endpoint) and the caller: the signed-in person, or an API key.
 */
export type OperationCall = { body: Record<string, unknown>; session: AuditedSession | null; apiKey?: OperationKey };

/** The invitation mail, queued in the transaction it is given; `inviter` null names the organization instead. */
export type SendInvitationEmail = (input: {
  id: string;
  email: string;
  role: string;
  organization: { name: string };
  inviter: { user: { name: string } } | null;
}) => Promise<void>;

/**
 * What the plan allows, handed in by the deployment (the billing module; this module does not know it):
 * `assertWithinLimit` throws when adding `adding` more of `resource` would pass the plan's limit, reading the count
 * under the organization's lock; `releaseOrganization` ends an organization's subscription before it is deleted.
 */
export type OrganizationLimits = {
  assertWithinLimit: (
    organizationId: string,
    resource: LimitedResource,
    adding: number | ((trx: Kysely<Database>) => Promise<number>),
  ) => Promise<void>;
  releaseOrganization: (organizationId: string) => Promise<void>;
};

/**
 * One organization write's own rules, all run in the one transaction of better-auth's write, in this order:
 * `lock`, then `check` (the rules that are ours: they refuse by throwing), then `prior` (what the audit entries
 * need from before the write), better-auth's write, and `record` (the audit entries, committed with the write).
 */
export type OrganizationOperation<TPrior = undefined> = {
  lock?: (db: Kysely<Database>, call: OperationCall) => Promise<void>;
  check?: (db: Kysely<Database>, call: OperationCall, limits: OrganizationLimits) => Promise<void>;
  prior?: (db: Kysely<Database>, call: OperationCall) => Promise<TPrior>;
  record: (call: AuditedCall<TPrior>) => Promise<AuditRecord[]> | AuditRecord[];
};

/**
 * An operation an organization API key may make (organizations.writes.ts): between `prior` and `record`, `write` is
 * the write better-auth makes for a person, with the rules of better-auth's endpoint that apply to a key, answering
 * what the endpoint answers.
 */
export type KeyOperation<TPrior = undefined> = OrganizationOperation<TPrior> & {
  write: (
    db: Kysely<Database>,
    call: OperationCall & { apiKey: OperationKey },
    services: { sendInvitationEmail: SendInvitationEmail },
  ) => Promise<unknown>;
};

export const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/** Roles as better-auth stores them (comma-separated), from one role, a list, or a comma-separated string. */
export const roleText = (value: unknown) => (Array.isArray(value) ? value.join(",") : (text(value) ?? ""));

/** The roles of a stored or requested role text, each trimmed. */
export const rolesIn = (value: string) => value.split(",").map((role) => role.trim());

export const field = (value: unknown, key: string) =>
  value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The organization a call is about: an API key's own; else the one it names, else the session's active one
 * (better-auth's own rule).
 */
export const organizationOf = ({ body, session, apiKey }: OperationCall) =>
  apiKey?.organizationId ?? text(body.organizationId) ?? session?.session.activeOrganizationId ?? undefined;

/**
 * Changes that can take an owner away take turns on the organization's row with the deletion of an owner's
 * account (../account-deletion.ts), so the two never both count the other as the owner that remains.
 */
export const lockOrganizationOf = async (db: Kysely<Database>, call: OperationCall) =>
  lockOrganizations(
    db,
    [organizationOf(call)].filter((id): id is string => id !== undefined),
  );

/**
 * The organization the call is about, when the caller's roles in it grant `permissions`: a plan-limit check runs
 * only for a caller better-auth would let through, so a refusal for lack of permission still reads as one.
 */
export async function permittedOrganization(
  db: Kysely<Database>,
  call: OperationCall,
  permissions: OrganizationPermissions,
): Promise<string | undefined> {
  const id = organizationOf(call);
  // A key's scope stands for these permissions; the route checked it (organizations.api-key-access.ts).
  if (call.apiKey) return id;
  if (!call.session || !id) return undefined;
  const scope = await findMembership(db, id, call.session.user.id);
  return scope && rolesAllow(scope.roles.join(","), permissions) ? id : undefined;
}

export type Invitation = { id: string; email: string; role?: string | null; organizationId: string };
export type Member = { id: string; userId: string; organizationId: string; role: string };
export type Team = { id: string; name: string; organizationId: string };

/** The audit entry about an invitation (none when better-auth answered without one). */
export function invitationEntry(action: AuditRecord["action"], invitation: Invitation | undefined): AuditRecord[] {
  if (!invitation) return [];
  return [
    {
      action,
      target: { type: "invitation", id: invitation.id, label: invitation.email },
      organization: { id: invitation.organizationId },
      details: { role: invitation.role ?? "member" },
    },
  ];
}

/** The audit entry about a user joining or leaving a team (none when there is no such team or user). */
export async function teamMemberEntry(
  db: Kysely<Database>,
  action: "team.member_added" | "team.member_removed",
  team: Team | undefined,
  userId: string | undefined,
): Promise<AuditRecord[]> {
  if (!team || !userId) return [];
  return [
    {
      action,
      target: { type: "user", id: userId, label: (await findMemberLabel(db, userId)) ?? userId },
      organization: { id: team.organizationId },
      details: { teamId: team.id, team: team.name },
    },
  ];
}
