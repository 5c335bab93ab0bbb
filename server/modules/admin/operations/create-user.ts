import { USERNAME_ERROR_CODES } from "better-auth/plugins";
import type { Kysely } from "kysely";
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from "../../../../common/account.schemas";
import { DomainError } from "../../../../common/domain-error";
import type { Database } from "../../../db/schema";
import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";
import { isTakenUsername } from "../admin.repository";

/**
 * A username given at creation follows the sign-up rules (better-auth's username plugin checks only sign-up and
 * update-user): the username checked and stored in lowercase, the display username it was typed as unless given.
 */
export async function usernameForNewUser(
  db: Kysely<Database>,
  input: { username: string; displayUsername: string | undefined },
): Promise<{ username: string; displayUsername: string }> {
  const { username } = input;
  if (username.length < USERNAME_MIN_LENGTH) throw DomainError.of(USERNAME_ERROR_CODES.USERNAME_TOO_SHORT);
  if (username.length > USERNAME_MAX_LENGTH) throw DomainError.of(USERNAME_ERROR_CODES.USERNAME_TOO_LONG);
  if (!USERNAME_PATTERN.test(username)) throw DomainError.of(USERNAME_ERROR_CODES.INVALID_USERNAME);
  if (await isTakenUsername(db, username.toLowerCase())) {
    throw DomainError.of(USERNAME_ERROR_CODES.USERNAME_IS_ALREADY_TAKEN);
  }
  return { username: username.toLowerCase(), displayUsername: input.displayUsername ?? username };
}

/** The entry of a user created: the role given, and whether with a password or invited to set one. */
export function createUserEntries(
  user: AuditedUser | undefined,
  input: { role: string; hasPassword: boolean },
): AuditRecord[] {
  return aboutUser("user.created", user, {
    details: { role: input.role || "user", password: input.hasPassword ? "set" : "invited" },
  });
}
