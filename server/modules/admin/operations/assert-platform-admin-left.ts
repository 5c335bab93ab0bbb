import type { Kysely } from "kysely";
import { DomainError } from "../../../../common/domain-error";
import { PLATFORM_ADMIN_ERROR_CODES } from "../../../../common/error-codes";
import { isPlatformAdmin } from "../../../../common/permissions";
import type { Database } from "../../../db/schema";
import { countPlatformAdminsOtherThan, findUser, type UserRow } from "../admin.repository";

/**
 * The last platform admin able to use the console is never demoted, banned or deleted: refuses a change to
 * `userId` when they are a platform admin and no other is left. `refuseAdmin` adds the change's own refusal of an
 * admin. Checked before the change and again inside its transaction, after `lockPlatformAdmins`.
 */
export async function assertPlatformAdminLeft(
  db: Kysely<Database>,
  input: { userId: string; adminUserIds: readonly string[]; refuseAdmin?: (target: UserRow) => void },
): Promise<void> {
  const target = await findUser(db, input.userId);
  if (!target || !isPlatformAdmin(target, input.adminUserIds)) return;
  input.refuseAdmin?.(target);
  if ((await countPlatformAdminsOtherThan(db, input.userId, input.adminUserIds)) === 0) {
    throw DomainError.of(PLATFORM_ADMIN_ERROR_CODES.LAST_PLATFORM_ADMIN);
  }
}
