import { DomainError } from "../../common/domain-error";
import type { UniqueConflict } from "../http/errors";

/** A sign-up or username change that lost a race on the username index answers like its sequential duplicate. */
export const accountUniqueConflicts: readonly UniqueConflict[] = [
  {
    indexes: ["user_username_key", "user.username"],
    answer: () => new DomainError("USERNAME_IS_ALREADY_TAKEN", "Username is already taken. Please try another."),
  },
];
