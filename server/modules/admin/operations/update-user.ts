import { DomainError } from "../../../../common/domain-error";

/**
 * The catch-all update is not offered: it would change a role, a ban or an e-mail past the rules and audit
 * entries of set-role, ban-user and set-user-password, which spell each change out.
 */
export function refuseUpdateUser(): never {
  throw new DomainError(
    "NOT_FOUND",
    "No endpoint POST /api/auth/admin/update-user: use set-role, ban-user, unban-user or set-user-password",
  );
}
