import type { AuditRecord } from "../audit";

/** The user an admin change is about, as the audit entry labels them: by the e-mail they had. */
export type AuditedUser = { id: string; email: string };

/** An entry about one user, labelled with the e-mail they had; none when there is no such user. */
export function aboutUser(
  action: AuditRecord["action"],
  user: AuditedUser | undefined,
  extra: Partial<AuditRecord> = {},
): AuditRecord[] {
  return user ? [{ action, target: { type: "user", id: user.id, label: user.email }, ...extra }] : [];
}
