import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import { hasTeamNamed, insertTeam } from "../organizations.repository";
import { lockOrganizationOf, permittedOrganization, text, type KeyOperation, type Team } from "./operation";

/** Creating a team: one more of the plan's teams, and a name that is not blank nor another team's. */
export const createTeam: KeyOperation & {
  /** Checked on every team better-auth is about to create (beforeCreateTeam), an organization's default team too. */
  assertValidName: (name: unknown) => void;
} = {
  // Two teams created at once with one name take turns on the organization's row, so the second sees the first.
  lock: lockOrganizationOf,
  check: async (db, call, limits) => {
    const organizationId = await permittedOrganization(db, call, { team: ["create"] });
    if (!organizationId) return;
    await limits.assertWithinLimit(organizationId, "teams", 1);
    const name = text(call.body.name);
    if (name && (await hasTeamNamed(db, organizationId, name)))
      throw DomainError.of(ORGANIZATION_ERROR_CODES.TEAM_NAME_ALREADY_TAKEN);
  },
  write: async (db, { body, apiKey }) => {
    createTeam.assertValidName(body.name);
    return insertTeam(db, { organizationId: apiKey.organizationId, name: text(body.name) ?? "" });
  },
  record: ({ response }) => {
    const team = response as Team | null;
    return team
      ? [
          {
            action: "team.created",
            target: { type: "team", id: team.id, label: team.name },
            organization: { id: team.organizationId },
          },
        ]
      : [];
  },
  assertValidName(name) {
    if (typeof name !== "string" || name.trim().length < 1)
      throw DomainError.of(ORGANIZATION_ERROR_CODES.INVALID_TEAM_NAME);
  },
};
