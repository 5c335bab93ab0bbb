import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import { deleteTeamMember, findMembership, findTeam, findTeamLabel, findTeamMember } from "../organizations.repository";
import { teamMemberEntry, text, type KeyOperation, type Team } from "./operation";

/** Removing a user from a team. */
export const removeTeamMember: KeyOperation<Team | undefined> = {
  prior: (db, { body }) => findTeamLabel(db, text(body.teamId) ?? ""),
  // better-auth's rules, in its order: the user is a member of the organization, the team one of its teams, and
  // the user one of the team's members.
  write: async (db, { body, apiKey }) => {
    const userId = text(body.userId) ?? "";
    if (!(await findMembership(db, apiKey.organizationId, userId)))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION);
    const team = await findTeam(db, apiKey, text(body.teamId) ?? "");
    if (!team) throw DomainError.of(ORGANIZATION_ERROR_CODES.TEAM_NOT_FOUND);
    if (!(await findTeamMember(db, team.id, userId)))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.USER_IS_NOT_A_MEMBER_OF_THE_TEAM);
    await deleteTeamMember(db, team.id, userId);
    return { message: "Team member removed successfully." };
  },
  record: async ({ db, body, prior }) => teamMemberEntry(db, "team.member_removed", prior, text(body.userId)),
};
