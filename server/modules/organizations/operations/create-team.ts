import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import { permittedOrganization, type OrganizationOperation, type Team } from "./operation";

/** Creating a team: one more of the plan's teams, and a name that is not blank. */
export const createTeam: OrganizationOperation & {
  /** Checked on every team better-auth is about to create (beforeCreateTeam), an organization's default team too. */
  assertValidName: (name: unknown) => void;
} = {
  check: async (db, call, limits) => {
    const organizationId = await permittedOrganization(db, call, { team: ["create"] });
    if (organizationId) await limits.assertWithinLimit(organizationId, "teams", 1);
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
