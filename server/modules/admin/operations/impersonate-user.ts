import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";

/** The entry of an impersonation started, with the reason the console gave. */
export function impersonateUserEntries(user: AuditedUser | undefined, reason: string | undefined): AuditRecord[] {
  return aboutUser("user.impersonation_started", user, { reason });
}
