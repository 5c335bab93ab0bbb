import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";

/** The entry of a password an admin set for a user. */
export function setUserPasswordEntries(user: AuditedUser | undefined): AuditRecord[] {
  return aboutUser("user.password_set", user);
}
