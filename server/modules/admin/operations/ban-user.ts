import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";
import { assertPlatformAdminLeft } from "./assert-platform-admin-left";

/** The last platform admin is never banned; banning oneself is refused by better-auth, with its own message. */
export async function assertMayBanUser(
  db: Kysely<Database>,
  input: { callerId: string; userId: string; adminUserIds: readonly string[] },
): Promise<void> {
  if (input.userId === input.callerId) return;
  await assertPlatformAdminLeft(db, input);
}

/** The entry of a ban: the reason given, and until when (null: for good). */
export function banUserEntries(
  user: (AuditedUser & { banExpires?: Date | string | null }) | undefined,
  reason: string | undefined,
): AuditRecord[] {
  const expiresAt = user?.banExpires ? new Date(user.banExpires).toISOString() : null;
  return aboutUser("user.banned", user, { reason, details: { expiresAt } });
}
