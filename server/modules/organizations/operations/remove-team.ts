import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { ORGANIZATION_ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import { findMembership, findTeamLabel, isTeamMember } from "../organizations.repository";
import { text, type OrganizationOperation, type Team } from "./operation";

/** Removing a team (better-auth keeps the organization's last one). */
export const removeTeam: OrganizationOperation<Team | undefined> & {
  /**
   * The spec: a member cannot delete a team they belong to (better-auth only checks the active team). Checked on
   * the team better-auth is about to delete (its beforeDeleteTeam), once it has let the caller through.
   */
  assertMayDelete: (
    db: Kysely<Database>,
    input: { userId: string; organizationId: string; teamId: string },
  ) => Promise<void>;
} = {
  prior: (db, { body }) => findTeamLabel(db, text(body.teamId) ?? ""),
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
