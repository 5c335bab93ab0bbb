import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";

/**
 * The entry of an impersonation ended. The admin ends it, from the impersonated session: the entry is theirs
 * (`admin`, read before the session goes), about the user they browsed as.
 */
export function stopImpersonatingEntries(
  impersonated: AuditedUser | undefined,
  admin: AuditedUser | undefined,
): AuditRecord[] {
  if (!impersonated || !admin) return [];
  return aboutUser("user.impersonation_stopped", impersonated, {
    actor: { type: "user", id: admin.id, label: admin.email },
    impersonatorId: null,
  });
}
