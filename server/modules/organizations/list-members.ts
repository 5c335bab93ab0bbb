import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { text } from "./operations/operation";
import { findMemberPage } from "./organizations.repository";
import { findAdmittedMembership } from "./organizations.security";

/** better-auth's page size when `limit` is missing or 0 (it has no `membershipLimit` here). */
const DEFAULT_LIMIT = 100;
/** Larger pages, and offsets past this, are left to better-auth. */
const LIMIT_MAX = 1_000;
const OFFSET_MAX = 1_000_000_000;

/** Query fields only better-auth's own read handles: sorting, filtering, and an organization named by its slug. */
const LEFT_TO_BETTER_AUTH = [
  "sortBy",
  "sortDirection",
  "filterField",
  "filterValue",
  "filterOperator",
  "organizationSlug",
] as const;

/**
 * better-auth's `organization/list-members` for a member, for a page by limit and offset, from the members list's own
 * statement (`findMemberPage`): the same members and total, in the members list's order (better-auth's has none),
 * under the organization's security policy as every organization read. Undefined for any other request (no session,
 * not a member, sorting or filtering, a limit it does not take): better-auth answers or refuses it.
 */
export async function listMembersPage(
  db: Kysely<Database>,
  query: Record<string, unknown>,
  session: { userId: string; activeOrganizationId?: string | null } | undefined,
) {
  if (LEFT_TO_BETTER_AUTH.some((field) => query[field] !== undefined)) return undefined;
  const limit = wholeNumber(query.limit, LIMIT_MAX);
  const offset = wholeNumber(query.offset, OFFSET_MAX);
  const organizationId = text(query.organizationId) ?? session?.activeOrganizationId;
  if (limit === undefined || offset === undefined || !session || !organizationId) return undefined;
  const scope = await findAdmittedMembership(db, organizationId, session.userId);
  return scope && findMemberPage(db, scope, { limit: limit || DEFAULT_LIMIT, offset });
}

/** A query field as better-auth reads it (missing or empty: 0), when it is a whole number up to `max`. */
function wholeNumber(value: unknown, max: number): number | undefined {
  if (value === undefined || value === "") return 0;
  const parsed = typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof parsed === "number" && Number.isInteger(parsed) && parsed >= 0 && parsed <= max ? parsed : undefined;
}
