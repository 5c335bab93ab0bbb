import { APIError } from "better-auth/api";
import { ERROR_CODES } from "../../../common/error-codes";
import { AppError, type UniqueConflict } from "../../http/errors";

/**
 * What a request that lost a race on one of this module's unique indexes answers (registered with the app's error
 * handler): better-auth's answer to its sequential duplicate, or 409 where that answer is no error.
 */
export const organizationUniqueConflicts: readonly UniqueConflict[] = [
  {
    indexes: ["organization_slug_key", "organization.slug"],
    path: "/api/auth/organization/update",
    answer: () =>
      APIError.from("BAD_REQUEST", {
        code: "ORGANIZATION_SLUG_ALREADY_TAKEN",
        message: "Organization slug already taken",
      }),
  },
  {
    indexes: ["organization_slug_key", "organization.slug"],
    answer: () => APIError.from("BAD_REQUEST", { code: "ORGANIZATION_ALREADY_EXISTS", message: "Organization already exists" }),
  },
  {
    indexes: ["invitation_pending_email_key", "invitation.organizationId, invitation.email"],
    answer: () =>
      APIError.from("BAD_REQUEST", {
        code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
        message: "User is already invited to this organization",
      }),
  },
  {
    // Adding a team member twice in a row answers 200 both times; only a lost race lands here.
    indexes: ["teamMember_teamId_userId_key", "teamMember_membershipKey_key", "teamMember.teamId, teamMember.userId", "teamMember.membershipKey"],
    answer: () => new AppError(ERROR_CODES.CONFLICT, "The user was added to this team by another request at the same moment."),
  },
];
