import { findTeamLabel } from "../organizations.repository";
import { text, type OrganizationOperation, type Team } from "./operation";

/** Renaming a team. */
export const updateTeam: OrganizationOperation<Team | undefined> = {
  prior: (db, { body }) => findTeamLabel(db, text(body.teamId) ?? ""),
  record: ({ prior, response }) => {
    const team = response as Team | null;
    if (!team || !prior || prior.name === team.name) return [];
    return [
      {
        action: "team.renamed",
        target: { type: "team", id: team.id, label: team.name },
        organization: { id: team.organizationId },
        details: { from: prior.name, to: team.name },
      },
    ];
  },
};
