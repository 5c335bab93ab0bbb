import { APIError } from "better-auth/api";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import type { OrganizationScope } from "../../http/organization-scope";
import {
  cancelExpiredPendingInvitations,
  findOrganizationIdBySlug,
  clearActiveOrganization,
  findInvitation,
  findMemberRoleByIdOrEmail,
  findMembers,
  findMembership,
  findTeamsWithMembers,
  isTeamMember,
  organizationExists,
} from "./organizations.repository";
import {
  METADATA_MAX_BYTES,
  METADATA_MAX_DEPTH,
  type InvitationState,
  type ListMembersQuery,
  type MemberList,
  type TeamWithMembers,
} from "./organizations.schemas";

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Walks at most `max` + 1 levels, so hostile nesting costs no more than allowed nesting (and cannot overflow the stack). */
function isNestedDeeperThan(value: unknown, max: number, depth = 1): boolean {
  if (value === null || typeof value !== "object") return false;
  if (depth > max) return true;
  for (const [key, child] of Object.entries(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw new APIError("BAD_REQUEST", { message: `metadata may not contain the key "${key}"`, code: "INVALID_METADATA" });
    if (isNestedDeeperThan(child, max, depth + 1)) return true;
  }
  return false;
}

/**
 * Accepts organization metadata as a map or its JSON string (the spec allows both) and returns the map;
 * too large, too deep, not an object, or prototype-polluting keys are a 400.
 */
export function normalizeMetadata(metadata: unknown): Record<string, unknown> | undefined {
  if (metadata === undefined || metadata === null) return undefined;
  let value = metadata;
  if (typeof value === "string") {
    if (Buffer.byteLength(value, "utf8") > METADATA_MAX_BYTES) throw tooLarge();
    try {
      value = JSON.parse(value);
    } catch {
      throw new APIError("BAD_REQUEST", { message: "metadata is not valid JSON", code: "INVALID_METADATA" });
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new APIError("BAD_REQUEST", { message: "metadata must be an object", code: "INVALID_METADATA" });
  }
  if (isNestedDeeperThan(value, METADATA_MAX_DEPTH)) {
    throw new APIError("BAD_REQUEST", { message: `metadata may be nested at most ${METADATA_MAX_DEPTH} levels deep`, code: "INVALID_METADATA" });
  }
  if (Buffer.byteLength(JSON.stringify(value), "utf8") > METADATA_MAX_BYTES) throw tooLarge();
  return value as Record<string, unknown>;
}

function tooLarge() {
  return new APIError("BAD_REQUEST", { message: `metadata may be at most ${METADATA_MAX_BYTES / 1024} KB`, code: "INVALID_METADATA" });
}

/** better-auth organization hooks for the spec rules the plugin does not enforce itself. */
export function createOrganizationHooks(db: Kysely<Database>) {
  return {
    async beforeCreateTeam({ team }: { team: { name: string } }) {
      if (typeof team.name !== "string" || team.name.trim().length < 1) {
        throw new APIError("BAD_REQUEST", { message: "team name must be at least 1 character", code: "INVALID_TEAM_NAME" });
      }
    },
    async beforeDeleteTeam({ team, user }: { team: { id: string }; user?: { id: string } }) {
      // The spec: a member cannot delete a team they belong to (better-auth only checks the active team).
      if (user && (await isTeamMember(db, team.id, user.id))) {
        throw new APIError("FORBIDDEN", { message: "You are not allowed to delete this team", code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM" });
      }
    },
    async beforeCreateInvitation({ invitation }: { invitation: { organizationId: string; email: string } }) {
      // An expired pending invitation would otherwise make re-inviting the address fail on the unique index.
      await cancelExpiredPendingInvitations(db, invitation.organizationId, invitation.email, new Date());
    },
    async afterRemoveMember({ member, organization }: { member: { userId: string }; organization: { id: string } }) {
      await clearActiveOrganization(db, member.userId, organization.id);
    },
  };
}

const hasRole = (roles: string, role: string) => roles.split(",").some((name) => name.trim() === role);

/**
 * The spec: only an owner removes an owner. better-auth refuses a non-owner too, but with "you cannot leave
 * the organization as the only owner"; the spec's answer is 401 "not allowed to delete this member".
 */
export async function assertMayRemoveMember(db: Kysely<Database>, input: { userId: string; organizationId: string; memberIdOrEmail: string }): Promise<void> {
  const [caller, targetRole] = await Promise.all([
    findMembership(db, input.organizationId, input.userId),
    findMemberRoleByIdOrEmail(db, input.organizationId, input.memberIdOrEmail),
  ]);
  // Not a member, or no such member: better-auth answers those itself.
  if (!caller || targetRole === undefined) return;
  if (hasRole(targetRole, "owner") && !hasRole(caller.role, "owner")) {
    throw new APIError("UNAUTHORIZED", { message: "You are not allowed to delete this member", code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER" });
  }
}

/**
 * Refuses a request for an organization the caller is not a member of before better-auth does: on that
 * refusal better-auth also clears the caller's active organization, so asking for another tenant's
 * organization would sign them out of the one they work in. Unknown organizations are left to better-auth.
 */
export async function assertMemberOfRequestedOrganization(
  db: Kysely<Database>,
  userId: string,
  requested: { organizationId?: string; organizationSlug?: string },
): Promise<void> {
  const organizationId = requested.organizationId ?? (requested.organizationSlug ? await findOrganizationIdBySlug(db, requested.organizationSlug) : undefined);
  if (!organizationId) return;
  const [exists, membership] = await Promise.all([organizationExists(db, organizationId), findMembership(db, organizationId, userId)]);
  // Refused here, before better-auth clears the caller's active organization on its own refusal.
  if (!exists) throw new APIError("BAD_REQUEST", { message: "Organization not found", code: "ORGANIZATION_NOT_FOUND" });
  if (!membership) {
    throw new APIError("FORBIDDEN", { message: "User is not a member of the organization", code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" });
  }
}

/** Called after a successful leave: the plugin clears only the leaving session, the spec wants them all. */
export async function onMemberLeft(db: Kysely<Database>, userId: string, organizationId: string): Promise<void> {
  await clearActiveOrganization(db, userId, organizationId);
}

/** Lists members of the caller's organization, with teams, searched and paged. */
export async function listMembers(db: Kysely<Database>, scope: OrganizationScope, query: ListMembersQuery): Promise<MemberList> {
  return findMembers(db, scope, query);
}

/** The state of an invitation link, with expiry folded in; null when there is no such invitation. */
export async function getInvitationState(db: Kysely<Database>, invitationId: string): Promise<InvitationState | null> {
  const invitation = await findInvitation(db, invitationId);
  if (!invitation) return null;
  if (invitation.status === "pending" && new Date(invitation.expiresAt).getTime() < Date.now()) return "expired";
  return invitation.status;
}

/** Lists the teams of the caller's organization with their members. */
export async function listTeams(db: Kysely<Database>, scope: OrganizationScope): Promise<TeamWithMembers[]> {
  return findTeamsWithMembers(db, scope);
}
