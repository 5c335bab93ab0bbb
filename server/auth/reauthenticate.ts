import { isAPIError } from "better-auth/api";
import type { Kysely } from "kysely";
import { DomainError } from "../../common/domain-error";
import { ERROR_CODES, REAUTHENTICATION_ERROR_CODES } from "../../common/error-codes";
import type { Database } from "../db/schema";
import type { Auth } from "./auth";
import { markSessionReauthenticated } from "./fresh-authentication";
import type { ReauthenticateRequest } from "./reauthenticate.routes";

/**
 * The re-check: the signed-in person proves it is them again, with their password or a code of their authenticator
 * app, and their current session becomes fresh for the sensitive actions (server/auth/fresh-authentication.ts)
 * without a new session. An impersonation's session is refused: the admin knows neither. Wrong attempts are bounded
 * by the route's rate limit (server/http/middleware/rate-limit.ts). Someone with neither (an account that signs in
 * only through a provider, without an authenticator app) signs in again through their provider.
 */
export async function reauthenticate(auth: Auth, db: Kysely<Database>, request: ReauthenticateRequest): Promise<void> {
  const { session, headers, input } = request;
  if (session.session.impersonatedBy) {
    throw new DomainError(ERROR_CODES.FORBIDDEN, "an impersonation's session cannot be re-checked");
  }
  if ("password" in input) {
    const context = await auth.$context;
    const account = await context.internalAdapter.findCredentialAccount(session.user.id);
    const isRight =
      account?.password !== undefined &&
      account.password !== null &&
      (await context.password.verify({ hash: account.password, password: input.password }));
    if (!isRight) throw DomainError.of(REAUTHENTICATION_ERROR_CODES.INVALID_PASSWORD);
  } else {
    const user = await db
      .selectFrom("user")
      .select("twoFactorEnabled")
      .where("id", "=", session.user.id)
      .executeTakeFirst();
    if (!user?.twoFactorEnabled) throw DomainError.of(REAUTHENTICATION_ERROR_CODES.INVALID_CODE);
    // The two-factor plugin's own check of a signed-in user's code, with whatever rules the app adds to it.
    await auth.api.verifyTOTP({ headers, body: { code: input.code } }).catch((error: unknown) => {
      if (isAPIError(error) && error.statusCode < 500) throw DomainError.of(REAUTHENTICATION_ERROR_CODES.INVALID_CODE);
      throw error;
    });
  }
  await markSessionReauthenticated(db, session.session.id);
}
