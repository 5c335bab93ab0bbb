import type { AuditRecord } from "../../audit";

/** The entry of one session revoked, about its owner (read before the session goes). */
export function revokeUserSessionEntries(
  owner: { sessionId: string; userId: string; email: string } | undefined,
): AuditRecord[] {
  if (!owner) return [];
  return [
    {
      action: "user.session_revoked",
      target: { type: "user", id: owner.userId, label: owner.email },
      details: { sessionId: owner.sessionId },
    },
  ];
}
