import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import {
  countTeams,
  deleteTeam,
  findMembership,
  findTeam,
  findTeamLabel,
  isTeamMember,
  removeTeamFromPendingInvitations,
} from "../organizations.repository";
import { lockOrganizationOf, text, type KeyOperation, type Team } from "./operation";

/** Removing a team (better-auth keeps the organization's last one). */
export const removeTeam: KeyOperation<Team | undefined> & {
  /**
   * The spec: a member cannot delete a team they belong to (better-auth only checks the active team). Checked on
   * the team better-auth is about to delete (its beforeDeleteTeam), once it has let the caller through.
   */
  assertMayDelete: (
    db: Kysely<Database>,
    input: { userId: string; organizationId: string; teamId: string },
  ) => Promise<void>;
} = {
  // Two teams removed at once take turns on the organization's row, so the second sees whether it is the last one.
  lock: lockOrganizationOf,
  prior: (db, { body }) => findTeamLabel(db, text(body.teamId) ?? ""),
  write: async (db, { body, apiKey }) => {
    const team = await findTeam(db, apiKey, text(body.teamId) ?? "");
    if (!team) throw DomainError.of(ORGANIZATION_ERROR_CODES.TEAM_NOT_FOUND);
    if ((await countTeams(db, apiKey)) <= 1) throw DomainError.of(ORGANIZATION_ERROR_CODES.UNABLE_TO_REMOVE_LAST_TEAM);
    await deleteTeam(db, team.id);
    await removeTeamFromPendingInvitations(db, apiKey, team.id);
    return { message: "Team removed successfully." };
  },
  record: ({ prior }) =>
    prior
      ? [
          {
            action: "team.removed",
            target: { type: "team", id: prior.id, label: prior.name },
            organization: { id: prior.organizationId },
          },
        ]
      : [],
  async assertMayDelete(db, input) {
    const scope = await findMembership(db, input.organizationId, input.userId);
    if (scope && (await isTeamMember(db, scope, input.teamId)))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM);
  },
};
