import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { SCIM_ERROR_CODES } from "../../../common/error-codes";
import { shareTransactions } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { recordAuditEvent, type AuditContext } from "../audit";
import { deleteTeam, deleteTeamMember, hasTeamNamed, insertTeamMember, lockOrganization } from "../organizations";
import { parseFilter } from "./scim.filter";
import { applyGroupPatch } from "./scim.patch";
import * as repository from "./scim.repository";
import type { GroupAttribute, ScimGroupRow } from "./scim.repository";
import { groupResource, listResponse } from "./scim.resources";
import {
  MAX_RESULTS,
  type GroupResourceInput,
  type ListQuery,
  type PatchOperation,
  type ScimGroupState,
} from "./scim.schemas";
import type { ScimCaller } from "./scim.tokens";
import type { ScimDeps } from "./scim.users";

/**
 * SCIM Groups are the organization's teams that the directory created: a group's members are the team's members
 * that the directory provisioned (SCIM User ids). Teams made in the app stay the app's: the directory neither sees nor
 * changes them, and a group cannot take a team's name.
 */

const GROUP_ATTRIBUTES: Record<string, GroupAttribute> = {
  displayname: "displayName",
  externalid: "externalId",
  id: "id",
};

const notFound = () => DomainError.of(SCIM_ERROR_CODES.SCIM_GROUP_NOT_FOUND);

/** `GET /Groups`, filtered and paged; `excludedAttributes=members` (what Okta and Entra ID ask) leaves members out. */
export async function listGroups(deps: ScimDeps, caller: ScimCaller, query: ListQuery) {
  const terms = parseFilter(query.filter, GROUP_ATTRIBUTES);
  const startIndex = Math.max(1, query.startIndex ?? 1);
  const limit = Math.min(MAX_RESULTS, Math.max(0, query.count ?? MAX_RESULTS));
  const { rows, total } = await repository.findScimGroups(deps.db, caller.organizationId, {
    terms,
    offset: startIndex - 1,
    limit,
  });
  const withMembers = !/(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? "");
  const members = withMembers
    ? await repository.findGroupMembers(
        deps.db,
        caller.organizationId,
        rows.map((row) => row.id),
      )
    : [];
  const resources = rows.map((row) =>
    groupResource(row, withMembers ? members.filter((member) => member.teamId === row.id) : undefined, deps.baseUrl),
  );
  return listResponse(resources, total, startIndex);
}

async function getRow(db: Kysely<Database>, caller: ScimCaller, id: string): Promise<ScimGroupRow> {
  const row = await repository.findScimGroup(db, caller.organizationId, id);
  if (!row) throw notFound();
  return row;
}

export async function getGroup(
  deps: ScimDeps,
  caller: ScimCaller,
  id: string,
  query: Pick<ListQuery, "excludedAttributes"> = {},
) {
  const row = await getRow(deps.db, caller, id);
  const withMembers = !/(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? "");
  const members = withMembers ? await repository.findGroupMembers(deps.db, caller.organizationId, [row.id]) : undefined;
  return groupResource(row, members, deps.baseUrl);
}

function inTransaction<T>(deps: ScimDeps, organizationId: string, work: (trx: Kysely<Database>) => Promise<T>) {
  return shareTransactions(deps.db)
    .transaction()
    .execute(async (trx) => {
      await lockOrganization(trx, organizationId);
      return work(trx);
    });
}

/** The person behind a member id: an active SCIM User of this organization (who is a member), else 400. */
async function memberUserId(trx: Kysely<Database>, organizationId: string, scimUserId: string) {
  const user = await repository.findScimUser(trx, organizationId, { id: scimUserId });
  if (!user || !(user.active === true || user.active === 1)) {
    throw new DomainError(
      SCIM_ERROR_CODES.SCIM_INVALID_VALUE.code,
      `No active user of this organization has the id ${scimUserId}`,
    );
  }
  return user;
}

/** Adds and removes team members to match `members`, each change audited. */
async function syncMembers(
  trx: Kysely<Database>,
  organizationId: string,
  team: { id: string; name: string },
  current: string[],
  wanted: string[],
  audit: AuditContext,
) {
  const changes = [
    ...wanted.filter((id) => !current.includes(id)).map((id) => ({ id, isAdded: true })),
    ...current.filter((id) => !wanted.includes(id)).map((id) => ({ id, isAdded: false })),
  ];
  for (const change of changes) {
    const user = change.isAdded
      ? await memberUserId(trx, organizationId, change.id)
      : await repository.findScimUser(trx, organizationId, { id: change.id });
    if (!user) continue;
    if (change.isAdded) await insertTeamMember(trx, team.id, user.user_id);
    else await deleteTeamMember(trx, team.id, user.user_id);
    await recordAuditEvent(trx, audit, {
      action: change.isAdded ? "team.member_added" : "team.member_removed",
      target: { type: "user", id: user.user_id, label: user.email },
      organization: { id: organizationId },
      details: { teamId: team.id, team: team.name },
    });
  }
}

async function assertNameFree(trx: Kysely<Database>, organizationId: string, name: string, exceptTeamId?: string) {
  if (await hasTeamNamed(trx, organizationId, name, exceptTeamId))
    throw DomainError.of(SCIM_ERROR_CODES.SCIM_GROUP_NAME_TAKEN);
}

/** `POST /Groups`: a new team (one more of the plan's teams), with its members, audited. */
export async function createGroup(deps: ScimDeps, caller: ScimCaller, body: GroupResourceInput, audit: AuditContext) {
  const { organizationId } = caller;
  const id = await inTransaction(deps, organizationId, async (trx) => {
    await assertNameFree(trx, organizationId, body.displayName);
    await deps.assertWithinLimit(organizationId, "teams", 1);
    const teamId = await repository.insertTeam(trx, {
      organizationId,
      name: body.displayName,
      externalId: body.externalId ?? null,
    });
    await recordAuditEvent(trx, audit, {
      action: "team.created",
      target: { type: "team", id: teamId, label: body.displayName },
      organization: { id: organizationId },
    });
    const wanted = [...new Set((body.members ?? []).map((member) => member.value))];
    await syncMembers(trx, organizationId, { id: teamId, name: body.displayName }, [], wanted, audit);
    return teamId;
  });
  return getGroup(deps, caller, id);
}

/** `PATCH /Groups/{id}`: a rename, an externalId, members added or removed (scim.patch.ts). */
export async function patchGroup(
  deps: ScimDeps,
  caller: ScimCaller,
  id: string,
  operations: PatchOperation[],
  audit: AuditContext,
) {
  const { organizationId } = caller;
  await inTransaction(deps, organizationId, async (trx) => {
    const row = await getRow(trx, caller, id);
    const current = (await repository.findGroupMembers(trx, organizationId, [row.id])).map((member) => member.id);
    const before: ScimGroupState = { displayName: row.display_name, externalId: row.external_id, members: current };
    const next = applyGroupPatch(before, operations);
    if (next.displayName !== before.displayName || next.externalId !== before.externalId) {
      if (next.displayName.toLowerCase() !== before.displayName.toLowerCase())
        await assertNameFree(trx, organizationId, next.displayName, row.id);
      await repository.updateGroup(trx, row.id, { name: next.displayName, externalId: next.externalId });
      if (next.displayName !== before.displayName) {
        await recordAuditEvent(trx, audit, {
          action: "team.renamed",
          target: { type: "team", id: row.id, label: next.displayName },
          organization: { id: organizationId },
          details: { from: before.displayName, to: next.displayName },
        });
      }
    }
    await syncMembers(trx, organizationId, { id: row.id, name: next.displayName }, current, next.members, audit);
  });
  return getGroup(deps, caller, id);
}

/** `DELETE /Groups/{id}`: the team goes (its members stay in the organization), audited. */
export async function deleteGroup(deps: ScimDeps, caller: ScimCaller, id: string, audit: AuditContext): Promise<void> {
  await inTransaction(deps, caller.organizationId, async (trx) => {
    const row = await getRow(trx, caller, id);
    await deleteTeam(trx, row.id);
    await recordAuditEvent(trx, audit, {
      action: "team.removed",
      target: { type: "team", id: row.id, label: row.display_name },
      organization: { id: caller.organizationId },
    });
  });
}
