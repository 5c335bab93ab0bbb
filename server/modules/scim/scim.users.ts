import type { Kysely } from "kysely";
import type { LimitedResource } from "../../../common/billing.schemas";
import { DomainError } from "../../../common/domain-error";
import { SCIM_ERROR_CODES } from "../../../common/error-codes";
import { shareTransactions } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { recordAuditEvent, type AuditContext } from "../audit";
import { deleteMembership, insertMember, lockOrganization } from "../organizations";
import { parseFilter } from "./scim.filter";
import { applyUserPatch, booleanOf } from "./scim.patch";
import * as repository from "./scim.repository";
import type { ScimUserRow, UserAttribute } from "./scim.repository";
import { listResponse, userResource } from "./scim.resources";
import {
  emailOf,
  MAX_RESULTS,
  type ListQuery,
  type PatchOperation,
  type ScimUserState,
  type UserResourceInput,
} from "./scim.schemas";
import type { ScimCaller } from "./scim.tokens";

/** What a SCIM write needs: the database, the plan's limits (billing's check) and the SCIM base URL. */
export type ScimDeps = {
  db: Kysely<Database>;
  assertWithinLimit: (organizationId: string, resource: LimitedResource, adding: number) => Promise<void>;
  baseUrl: string;
};

/** The role a provisioned person gets: the organization's default role (better-auth's `member`). */
const DEFAULT_ROLE = "member";

const USER_ATTRIBUTES: Record<string, UserAttribute> = {
  username: "userName",
  externalid: "externalId",
  "emails.value": "emails.value",
  emails: "emails.value",
  'emails[type eq "work"].value': "emails.value",
  displayname: "displayName",
  id: "id",
  active: "active",
};

const isTrue = (value: boolean | number) => value === true || value === 1;
const notFound = () => DomainError.of(SCIM_ERROR_CODES.SCIM_USER_NOT_FOUND);

/** `GET /Users`: the organization's provisioned people, filtered, from `startIndex` (1-based), `count` at most. */
export async function listUsers(deps: ScimDeps, caller: ScimCaller, query: ListQuery) {
  const terms = parseFilter(query.filter, USER_ATTRIBUTES);
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const limit = Math.min(MAX_RESULTS, Math.max(0, query.count ?? MAX_RESULTS));
  const { rows, total } = await repository.findScimUsers(deps.db, caller.organizationId, {
    terms,
    offset: startIndex - 1,
    limit,
  });
  return listResponse(
    rows.map((row) => userResource(row, deps.baseUrl)),
    total,
    startIndex,
  );
}

async function getRow(db: Kysely<Database>, caller: ScimCaller, id: string): Promise<ScimUserRow> {
  const row = await repository.findScimUser(db, caller.organizationId, { id });
  if (!row) throw notFound();
  return row;
}

export async function getUser(deps: ScimDeps, caller: ScimCaller, id: string) {
  return userResource(await getRow(deps.db, caller, id), deps.baseUrl);
}

const stateOf = (row: ScimUserRow): ScimUserState => ({
  userName: row.user_name,
  externalId: row.external_id,
  email: row.email,
  givenName: row.given_name,
  familyName: row.family_name,
  displayName: row.display_name,
  active: isTrue(row.active),
});

/** The state a POST or PUT body describes; `active` defaults to `fallbackActive`. */
function stateFromBody(body: UserResourceInput, fallbackActive: boolean): ScimUserState {
  const email = emailOf(body.emails) ?? emailOf([{ value: body.userName }]);
  if (!email) {
    throw new DomainError(
      SCIM_ERROR_CODES.SCIM_INVALID_VALUE.code,
      "An e-mail address is required: send emails, or a userName that is an e-mail address",
    );
  }
  return {
    userName: body.userName,
    externalId: body.externalId ?? null,
    email,
    givenName: body.name?.givenName ?? null,
    familyName: body.name?.familyName ?? null,
    displayName: body.displayName ?? null,
    active: body.active === undefined ? fallbackActive : booleanOf(body.active, "active"),
  };
}

const displayNameOf = (state: ScimUserState) =>
  state.displayName ?? ([state.givenName, state.familyName].filter(Boolean).join(" ") || state.userName);

async function assertUserNameFree(trx: Kysely<Database>, organizationId: string, userName: string, exceptId?: string) {
  const holder = await repository.findScimUser(trx, organizationId, { userNameKey: userName.toLowerCase() });
  if (holder && holder.id !== exceptId) throw DomainError.of(SCIM_ERROR_CODES.SCIM_USER_NAME_TAKEN);
}

/** Makes the person a member with the default role unless they are one, within the plan's seats, audited. */
async function admit(
  deps: ScimDeps,
  trx: Kysely<Database>,
  organizationId: string,
  userId: string,
  email: string,
  audit: AuditContext,
) {
  if (await repository.findMemberRoles(trx, organizationId, userId)) return;
  await deps.assertWithinLimit(organizationId, "members", 1);
  await insertMember(trx, { organizationId, userId, role: DEFAULT_ROLE });
  await recordAuditEvent(trx, audit, {
    action: "member.added",
    target: { type: "user", id: userId, label: email },
    organization: { id: organizationId },
    details: { role: DEFAULT_ROLE, provisioned: true },
  });
}

/**
 * Deprovisioning: the membership ends (the organization's teams with it) and every session of the person is deleted
 * in the same transaction, so their next request is refused (the read cache drops their session on the change
 * feed's row). The organization's only owner is refused: it would be left without one.
 */
async function deprovision(
  trx: Kysely<Database>,
  organizationId: string,
  row: ScimUserRow,
  audit: AuditContext,
  reason: "inactive" | "deleted",
) {
  const roles = await repository.findMemberRoles(trx, organizationId, row.user_id);
  if (!roles) return;
  if (roles.includes("owner") && (await repository.countOwners(trx, organizationId)) <= 1)
    throw DomainError.of(SCIM_ERROR_CODES.SCIM_SOLE_OWNER);
  await deleteMembership(trx, organizationId, row.user_id);
  const sessionsRevoked = await repository.deleteSessions(trx, row.user_id);
  await recordAuditEvent(trx, audit, {
    action: "member.removed",
    target: { type: "user", id: row.user_id, label: row.email },
    organization: { id: organizationId },
    details: { role: roles.join(","), deprovisioned: reason, sessionsRevoked },
  });
}

/** The transaction of a SCIM write: shared, so the plan's check reads through it, under the organization's lock. */
function inTransaction<T>(deps: ScimDeps, organizationId: string, work: (trx: Kysely<Database>) => Promise<T>) {
  return shareTransactions(deps.db)
    .transaction()
    .execute(async (trx) => {
      await lockOrganization(trx, organizationId);
      return work(trx);
    });
}

/**
 * `POST /Users`: the person is found by e-mail address (linked) or gets an account without a password (created), is
 * recorded as the organization's SCIM User, and when active becomes a member with the default role.
 */
export async function createUser(deps: ScimDeps, caller: ScimCaller, body: UserResourceInput, audit: AuditContext) {
  const state = stateFromBody(body, true);
  const { organizationId } = caller;
  const id = await inTransaction(deps, organizationId, async (trx) => {
    await assertUserNameFree(trx, organizationId, state.userName);
    let userId = await repository.findUserIdByEmail(trx, state.email);
    if (userId && (await repository.findScimUser(trx, organizationId, { userId })))
      throw DomainError.of(SCIM_ERROR_CODES.SCIM_USER_ALREADY_PROVISIONED);
    userId ??= await repository.insertUser(trx, { name: displayNameOf(state), email: state.email });
    const created = await repository.insertScimUser(trx, organizationId, userId, state);
    if (state.active) await admit(deps, trx, organizationId, userId, state.email, audit);
    return created;
  });
  return getUser(deps, caller, id);
}

const PROFILE_FIELDS = ["userName", "externalId", "email", "givenName", "familyName", "displayName"] as const;

/** Saves a User's new state: its profile (audited when it changed) and its membership when `active` changed. */
async function saveUser(
  deps: ScimDeps,
  caller: ScimCaller,
  id: string,
  next: (row: ScimUserRow) => ScimUserState,
  audit: AuditContext,
) {
  const { organizationId } = caller;
  await inTransaction(deps, organizationId, async (trx) => {
    const row = await getRow(trx, caller, id);
    const before = stateOf(row);
    const state = next(row);
    if (state.userName.toLowerCase() !== before.userName.toLowerCase())
      await assertUserNameFree(trx, organizationId, state.userName, row.id);
    const changed = PROFILE_FIELDS.filter((field) => state[field] !== before[field]);
    if (changed.length === 0 && state.active === before.active) return;
    await repository.updateScimUser(trx, row.id, state);
    if (changed.length > 0) {
      await recordAuditEvent(trx, audit, {
        action: "member.profile_updated",
        target: { type: "user", id: row.user_id, label: state.email },
        organization: { id: organizationId },
        details: { changed },
      });
    }
    if (state.active && !before.active) await admit(deps, trx, organizationId, row.user_id, state.email, audit);
    if (!state.active && before.active) await deprovision(trx, organizationId, row, audit, "inactive");
  });
  return getUser(deps, caller, id);
}

/** `PUT /Users/{id}`: the body replaces the User; `active` stays as it was when the body leaves it out. */
export function replaceUser(
  deps: ScimDeps,
  caller: ScimCaller,
  id: string,
  body: UserResourceInput,
  audit: AuditContext,
) {
  return saveUser(deps, caller, id, (row) => stateFromBody(body, isTrue(row.active)), audit);
}

/** `PATCH /Users/{id}` (scim.patch.ts). `active: false` deprovisions. */
export function patchUser(
  deps: ScimDeps,
  caller: ScimCaller,
  id: string,
  operations: PatchOperation[],
  audit: AuditContext,
) {
  return saveUser(deps, caller, id, (row) => applyUserPatch(stateOf(row), operations), audit);
}

/** `DELETE /Users/{id}`: deprovisions the person and forgets the SCIM User (its id answers 404 from then on). */
export async function deleteUser(deps: ScimDeps, caller: ScimCaller, id: string, audit: AuditContext): Promise<void> {
  await inTransaction(deps, caller.organizationId, async (trx) => {
    const row = await getRow(trx, caller, id);
    if (isTrue(row.active)) await deprovision(trx, caller.organizationId, row, audit, "deleted");
    await repository.deleteScimUser(trx, row.id);
  });
}
