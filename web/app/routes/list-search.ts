import { z } from "zod";
import {
  ADMIN_DEFAULT_PAGE_SIZE,
  adminOrganizationListQuerySchema,
  adminUserListQuerySchema,
} from "../../../common/admin.schemas";
import { auditLogQuerySchema } from "../../../common/audit.schemas";

/**
 * How the lists (the admin console's users, organizations and audit log, an organization's audit log) read their
 * view from the address, with the API's own query schemas. A value that does not parse (a hand-edited or outdated
 * address) reads as its default rather than failing the page, and a date range that ends before it starts keeps
 * only its start (the server would refuse it).
 *
 * Only the lists' loaders and pages load this module (with zod): the route definitions are on every page's first
 * load, so their `validateSearch` passes the address's values through as they are (typed, see `listSearch`) and
 * the parse happens here.
 */

/** A date range whose end comes before its start keeps only its start. */
function withOrderedRange<T, K extends keyof T>(from: K, to: K) {
  return (search: T): T =>
    search[from] && search[to] && search[from] > search[to] ? { ...search, [to]: undefined } : search;
}

const users = adminUserListQuerySchema.shape;
export const userListSearchSchema = z
  .object({
    q: users.q.catch(undefined),
    role: users.role.catch(undefined),
    status: users.status.catch(undefined),
    verified: users.verified.catch(undefined),
    createdFrom: users.createdFrom.catch(undefined),
    createdTo: users.createdTo.catch(undefined),
    sort: users.sort.catch("created"),
    order: users.order.catch("desc"),
    limit: users.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
    offset: users.offset.catch(0),
  })
  .transform(withOrderedRange("createdFrom", "createdTo"));

const organizations = adminOrganizationListQuerySchema.shape;
export const organizationListSearchSchema = z.object({
  q: organizations.q.catch(undefined),
  limit: organizations.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
  offset: organizations.offset.catch(0),
});

const audit = auditLogQuerySchema.shape;
export const auditLogSearchSchema = z
  .object({
    action: audit.action.catch(undefined),
    actorId: audit.actorId.catch(undefined),
    targetId: audit.targetId.catch(undefined),
    organizationId: audit.organizationId.catch(undefined),
    from: audit.from.catch(undefined),
    to: audit.to.catch(undefined),
    limit: audit.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
    offset: audit.offset.catch(0),
  })
  .transform(withOrderedRange("from", "to"));

/** An organization's own audit log: the admin view's filters without the actor, target and organization. */
export const organizationAuditLogSearchSchema = z
  .object({
    action: audit.action.catch(undefined),
    from: audit.from.catch(undefined),
    to: audit.to.catch(undefined),
    limit: audit.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
    offset: audit.offset.catch(0),
  })
  .transform(withOrderedRange("from", "to"));
