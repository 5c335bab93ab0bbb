import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import {
  findMembership,
  findTeam,
  findTeamLabel,
  findTeamMember,
  insertTeamMember,
  lockTeam,
} from "../organizations.repository";
import { teamMemberEntry, text, type KeyOperation, type Team } from "./operation";

/**
 * Adding a user to a team. better-auth 1.7 adds a team member by looking for the membership, inserting it, and
 * when the insert hits the unique index looking again to answer with the existing one. On PostgreSQL that second
 * look runs in a transaction the failed insert has aborted, so the later of two concurrent adds answered 500 where
 * a sequential repeat answers 200. Locking the team row first makes concurrent adds to one team take turns, and the
 * later finds the membership as a repeat does (and records nothing new).
 */
export const addTeamMember: KeyOperation<{ team: Team | undefined; isMember: boolean }> = {
  lock: async (db, { body }) => {
    if (typeof body.teamId === "string") await lockTeam(db, body.teamId);
  },
  prior: async (db, { body }) => {
    const teamId = text(body.teamId);
    const userId = text(body.userId);
    const existing =
      teamId && userId
        ? await db
            .selectFrom("teamMember")
            .select("id")
            .where("teamId", "=", teamId)
            .where("userId", "=", userId)
            .executeTakeFirst()
        : undefined;
    return { team: await findTeamLabel(db, teamId ?? ""), isMember: existing !== undefined };
  },
  // better-auth's rules, in its order: the user is a member of the organization, the team is one of its teams.
  write: async (db, { body, apiKey }) => {
    const userId = text(body.userId) ?? "";
    if (!(await findMembership(db, apiKey.organizationId, userId)))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION);
    const team = await findTeam(db, apiKey, text(body.teamId) ?? "");
    if (!team) throw DomainError.of(ORGANIZATION_ERROR_CODES.TEAM_NOT_FOUND);
    return (await findTeamMember(db, team.id, userId)) ?? (await insertTeamMember(db, team.id, userId));
  },
  record: async ({ db, body, prior }) =>
    teamMemberEntry(db, "team.member_added", prior.isMember ? undefined : prior.team, text(body.userId)),
};
