import { findTeamLabel } from "../organizations.repository";
import { teamMemberEntry, text, type OrganizationOperation, type Team } from "./operation";

/** Removing a user from a team. */
export const removeTeamMember: OrganizationOperation<Team | undefined> = {
  prior: (db, { body }) => findTeamLabel(db, text(body.teamId) ?? ""),
  record: async ({ db, body, prior }) => teamMemberEntry(db, "team.member_removed", prior, text(body.userId)),
};
