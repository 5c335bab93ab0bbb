import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";

/** The entry of every session of a user revoked. */
export function revokeUserSessionsEntries(user: AuditedUser | undefined): AuditRecord[] {
  return aboutUser("user.sessions_revoked", user);
}
