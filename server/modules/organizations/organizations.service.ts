import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { INVALID_METADATA_MESSAGES, ORGANIZATION_ERROR_CODES } from "../../../common/error-codes";
import type { Database } from "../../db/schema";
import type { ReadCache } from "../../db/read-cache";
import { findDeletedOrganizationOfInvitation } from "../audit";
import {
  findInvitation,
  findMembers,
  findMembership,
  findOrganizationIdBySlug,
  findTeamsWithMembers,
  organizationExists,
} from "./organizations.repository";
import {
  METADATA_MAX_BYTES,
  METADATA_MAX_DEPTH,
  type InvitationPreview,
  type InvitationState,
  type ListMembersQuery,
  type MemberList,
  type OrganizationScope,
  type TeamWithMembers,
} from "./organizations.schemas";

/**
 * The organization rules better-auth does not enforce itself. Each takes the database handle to query
 * through: inside better-auth that is `await currentDatabase(db)` (see organizations.plugin.ts).
 */

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

const invalidMetadata = (message: string) => new DomainError(ORGANIZATION_ERROR_CODES.INVALID_METADATA.code, message);

/** Walks at most `max` + 1 levels, so hostile nesting costs no more than allowed nesting (and cannot overflow the stack). */
function isNestedDeeperThan(value: unknown, max: number, depth = 1): boolean {
  if (value === null || typeof value !== "object") return false;
  if (depth > max) return true;
  for (const [key, child] of Object.entries(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw invalidMetadata(INVALID_METADATA_MESSAGES.forbiddenKey(key));
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
    if (Buffer.byteLength(value, "utf8") > METADATA_MAX_BYTES)
      throw invalidMetadata(INVALID_METADATA_MESSAGES.tooLarge(METADATA_MAX_BYTES));
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidMetadata(INVALID_METADATA_MESSAGES.notJson);
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidMetadata(INVALID_METADATA_MESSAGES.notAnObject);
  if (isNestedDeeperThan(value, METADATA_MAX_DEPTH))
    throw invalidMetadata(INVALID_METADATA_MESSAGES.tooDeep(METADATA_MAX_DEPTH));
  if (Buffer.byteLength(JSON.stringify(value), "utf8") > METADATA_MAX_BYTES)
    throw invalidMetadata(INVALID_METADATA_MESSAGES.tooLarge(METADATA_MAX_BYTES));
  return value as Record<string, unknown>;
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
  const organizationId =
    requested.organizationId ??
    (requested.organizationSlug ? await findOrganizationIdBySlug(db, requested.organizationSlug) : undefined);
  if (!organizationId) return;
  const [exists, membership] = await Promise.all([
    organizationExists(db, organizationId),
    findMembership(db, organizationId, userId),
  ]);
  if (!exists) throw DomainError.of(ORGANIZATION_ERROR_CODES.ORGANIZATION_NOT_FOUND);
  if (!membership) throw DomainError.of(ORGANIZATION_ERROR_CODES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION);
}

/** Lists members of the caller's organization, with teams, searched and paged; a read's search in memory (ADR 0037). */
export async function listMembers(
  db: Kysely<Database>,
  scope: OrganizationScope,
  query: ListMembersQuery,
  cache?: ReadCache,
): Promise<MemberList> {
  return findMembers(db, scope, query, cache);
}

/** Whether no organization has this slug (better-auth's check-slug answers a taken one with an error). */
export async function isSlugAvailable(db: Kysely<Database>, slug: string): Promise<boolean> {
  return (await findOrganizationIdBySlug(db, slug)) === undefined;
}

/**
 * What an invitation link shows anyone who holds it: its state (expiry folded in), the organization's name and the
 * inviter's (none when an API key sent it), so a stranger knows who asks them to sign up. Null when there is no such
 * invitation.
 */
export async function getInvitationPreview(
  db: Kysely<Database>,
  invitationId: string,
): Promise<InvitationPreview | null> {
  const invitation = await findInvitation(db, invitationId);
  if (!invitation) {
    const deletedOrganizationName = await findDeletedOrganizationOfInvitation(db, invitationId);
    return deletedOrganizationName === undefined
      ? null
      : { state: "organization_deleted", organizationName: deletedOrganizationName, inviterName: "" };
  }
  const isExpired = invitation.status === "pending" && new Date(invitation.expiresAt).getTime() < Date.now();
  const state: InvitationState = isExpired ? "expired" : invitation.status;
  return { state, organizationName: invitation.organizationName, inviterName: invitation.inviterName };
}

/** Lists the teams of the caller's organization with their members. */
export async function listTeams(db: Kysely<Database>, scope: OrganizationScope): Promise<TeamWithMembers[]> {
  return findTeamsWithMembers(db, scope);
}
