import type { Kysely } from "kysely";
import type { ResetSecondFactorsInput, SecondFactorsReset } from "../../../../common/admin.schemas";
import { DomainError } from "../../../../common/domain-error";
import { ERROR_CODES, PLATFORM_ADMIN_ERROR_CODES } from "../../../../common/error-codes";
import type { Database } from "../../../db/schema";
import { recordAuditEvent, type AuditContext } from "../../audit";
import { mailTemplates, type MailQueue } from "../../mail";
import { deleteSecondFactors, deleteSessions, findSecondFactors, findUser } from "../admin.repository";

/**
 * A platform admin resets the second factors of a user who lost them all (no authenticator, no backup code, no
 * passkey): the TOTP secret and backup codes and every passkey are deleted and TOTP turned off, every session of the
 * user is signed out, the entry (with the reason) is recorded and the user is mailed, in one transaction: the mail
 * is queued in the outbox with the change, so it is sent if and only if the reset happened.
 */
export async function resetSecondFactors(
  deps: { db: Kysely<Database>; mail: MailQueue; baseUrl: string },
  userId: string,
  input: ResetSecondFactorsInput,
  audit: AuditContext,
): Promise<SecondFactorsReset> {
  return deps.db.transaction().execute(async (trx) => {
    const user = await findUser(trx, userId);
    if (!user) throw new DomainError(ERROR_CODES.NOT_FOUND, "user not found");
    const factors = await findSecondFactors(trx, userId);
    if (!factors.totp && factors.passkeys === 0) throw DomainError.of(PLATFORM_ADMIN_ERROR_CODES.NO_SECOND_FACTOR);
    await deleteSecondFactors(trx, userId);
    const sessionsRevoked = await deleteSessions(trx, userId);
    await recordAuditEvent(trx, audit, {
      action: "user.two_factor_reset",
      target: { type: "user", id: user.id, label: user.email },
      reason: input.reason,
      details: { ...factors, sessionsRevoked },
    });
    await deps.mail.enqueue(
      {
        to: user.email,
        ...mailTemplates.secondFactorsResetMail({ name: user.name, signInUrl: `${deps.baseUrl}/sign-in` }),
      },
      trx,
    );
    return { ...factors, sessionsRevoked };
  });
}
