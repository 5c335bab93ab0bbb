import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";
import { assertPlatformAdminLeft } from "./assert-platform-admin-left";

/** The last platform admin is never deleted; deleting oneself is refused by better-auth, with its own message. */
export async function assertMayRemoveUser(
  db: Kysely<Database>,
  input: { callerId: string; userId: string; adminUserIds: readonly string[] },
): Promise<void> {
  if (input.userId === input.callerId) return;
  await assertPlatformAdminLeft(db, input);
}

/** The entry of a deletion, labelled with the e-mail the user had (read before the deletion). */
export function removeUserEntries(user: AuditedUser | undefined): AuditRecord[] {
  return aboutUser("user.deleted", user);
}
