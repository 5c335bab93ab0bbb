import { APIError } from "better-auth/api";
import type { UniqueConflict } from "../http/errors";

/** A sign-up or username change that lost a race on the username index answers like its sequential duplicate. */
export const accountUniqueConflicts: readonly UniqueConflict[] = [
  {
    indexes: ["user_username_key", "user.username"],
    answer: () =>
      APIError.from("BAD_REQUEST", {
        code: "USERNAME_IS_ALREADY_TAKEN",
        message: "Username is already taken. Please try another.",
      }),
  },
];
