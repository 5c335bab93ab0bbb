import { findTeamLabel, lockTeam } from "../organizations.repository";
import { teamMemberEntry, text, type OrganizationOperation, type Team } from "./operation";

/**
 * Adding a user to a team. better-auth 1.7 adds a team member by looking for the membership, inserting it, and
 * when the insert hits the unique index looking again to answer with the existing one. On PostgreSQL that second
 * look runs in a transaction the failed insert has aborted, so the later of two concurrent adds answered 500 where
 * a sequential repeat answers 200. Locking the team row first makes concurrent adds to one team take turns, and the
 * later finds the membership as a repeat does (and records nothing new).
 */
export const addTeamMember: OrganizationOperation<{ team: Team | undefined; isMember: boolean }> = {
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
  record: async ({ db, body, prior }) =>
    teamMemberEntry(db, "team.member_added", prior.isMember ? undefined : prior.team, text(body.userId)),
};
