import { DomainError } from "../../../common/domain-error";
import { ERROR_CODES, ORGANIZATION_ERROR_CODES } from "../../../common/error-codes";
import { type UniqueConflict } from "../../http/errors";

/**
 * What a request that lost a race on one of this module's unique indexes answers (registered with the app's error
 * handler): better-auth's answer to its sequential duplicate, or 409 where that answer is no error.
 */
export const organizationUniqueConflicts: readonly UniqueConflict[] = [
  {
    indexes: ["organization_slug_key", "organization.slug"],
    path: "/api/auth/organization/update",
    answer: () => new DomainError("ORGANIZATION_SLUG_ALREADY_TAKEN", "Organization slug already taken"),
  },
  {
    indexes: ["organization_slug_key", "organization.slug"],
    answer: () => new DomainError("ORGANIZATION_ALREADY_EXISTS", "Organization already exists"),
  },
  {
    indexes: ["invitation_pending_email_key", "invitation.organizationId, invitation.email"],
    answer: () => DomainError.of(ORGANIZATION_ERROR_CODES.USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION),
  },
  {
    // Adding a team member twice in a row answers 200 both times; only a lost race lands here.
    indexes: [
      "teamMember_teamId_userId_key",
      "teamMember_membershipKey_key",
      "teamMember.teamId, teamMember.userId",
      "teamMember.membershipKey",
    ],
    answer: () =>
      new DomainError(ERROR_CODES.CONFLICT, "The user was added to this team by another request at the same moment."),
  },
];
