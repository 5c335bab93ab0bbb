import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import { findTeam, findTeamLabel, hasTeamNamed, lockOrganization, renameTeam } from "../organizations.repository";
import { field, permittedOrganization, text, type KeyOperation, type Team } from "./operation";

/** Renaming a team, to a name no other team of its organization has. */
export const updateTeam: KeyOperation<Team | undefined> = {
  check: async (db, call) => {
    const name = text(field(call.body.data, "name"));
    const team = name ? await findTeamLabel(db, text(call.body.teamId) ?? "") : undefined;
    if (!name || !team) return;
    // Only for a caller better-auth lets rename it (an API key: only its own organization's), so nobody else learns
    // the organization's team names.
    const inTeamOrganization = { ...call, body: { organizationId: team.organizationId } };
    if ((await permittedOrganization(db, inTeamOrganization, { team: ["update"] })) !== team.organizationId) return;
    await lockOrganization(db, team.organizationId);
    if (await hasTeamNamed(db, team.organizationId, name, team.id))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.TEAM_NAME_ALREADY_TAKEN);
  },
  prior: (db, { body }) => findTeamLabel(db, text(body.teamId) ?? ""),
  write: async (db, { body, apiKey }) => {
    const team = await findTeam(db, apiKey, text(body.teamId) ?? "");
    if (!team) throw DomainError.of(ORGANIZATION_ERROR_CODES.TEAM_NOT_FOUND);
    const name = text(field(body.data, "name")) ?? team.name;
    await renameTeam(db, team.id, name);
    return (await findTeam(db, apiKey, team.id)) ?? { ...team, name };
  },
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
