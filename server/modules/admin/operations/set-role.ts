import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { PLATFORM_ADMIN_ERROR_CODES } from "../../../../common/error-codes";
import { isPlatformAdmin } from "../../../../common/permissions";
import type { Database } from "../../../db/schema";
import type { AuditRecord } from "../../audit";
import { aboutUser, type AuditedUser } from "../admin.audit";
import { isListedInAdminEmails } from "../admin-emails";
import { assertPlatformAdminLeft } from "./assert-platform-admin-left";

type SetRoleInput = {
  callerId: string;
  userId: string;
  /** The roles asked for, comma-separated. */
  role: string;
  adminUserIds: readonly string[];
  adminEmails: readonly string[];
};

/**
 * No admin changes their own platform role; the last platform admin is never demoted, nor one `ADMIN_EMAILS`
 * lists (the admin-emails plugin would grant the role again at the user's next update: no demotion would hold).
 */
export async function assertMaySetRole(db: Kysely<Database>, input: SetRoleInput): Promise<void> {
  if (input.userId === input.callerId) {
    throw DomainError.of(PLATFORM_ADMIN_ERROR_CODES.YOU_CANNOT_CHANGE_YOUR_OWN_ROLE);
  }
  // A configured administrator id stays an admin whatever its role; a role that keeps `admin` demotes no one.
  if (isPlatformAdmin({ id: input.userId, role: input.role }, input.adminUserIds)) return;
  await assertPlatformAdminLeft(db, {
    userId: input.userId,
    adminUserIds: input.adminUserIds,
    refuseAdmin: (target) => {
      if (isListedInAdminEmails(target, input.adminEmails)) {
        throw DomainError.of(PLATFORM_ADMIN_ERROR_CODES.ADMIN_EMAILS_ADMIN);
      }
    },
  });
}

/** The entry of a role change, from the role the user had to the one set. */
export function setRoleEntries(user: AuditedUser | undefined, change: { from?: string; to: string }): AuditRecord[] {
  return aboutUser("user.role_changed", user, { details: { from: change.from ?? "user", to: change.to } });
}
