import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";

/** The entry of a lifted ban. */
export function unbanUserEntries(user: AuditedUser | undefined): AuditRecord[] {
  return aboutUser("user.unbanned", user);
}
