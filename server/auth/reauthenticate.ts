import { isAPIError } from "better-auth/api";
import type { Kysely } from "kysely";
import { DomainError } from "../../common/domain-error";
import { ERROR_CODES, REAUTHENTICATION_ERROR_CODES } from "../../common/error-codes";
import type { Database } from "../db/schema";
import type { Auth } from "./auth";
import { markSessionReauthenticated } from "./fresh-authentication";
import type { ReauthenticateRequest } from "./reauthenticate.routes";

/**
 * The re-check: the signed-in person proves it is them again, with their password, a code of their authenticator
 * app or one of their passkeys, and their current session becomes fresh for the sensitive actions
 * (server/auth/fresh-authentication.ts) without a new session. An impersonation's session is refused: the admin has
 * none of them. Wrong attempts are bounded by the route's rate limit (server/http/middleware/rate-limit.ts). Someone
 * with none (an account that signs in only through a provider) signs in again through their provider.
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
  } else if ("passkey" in input) {
    await verifyOwnPasskey(auth, db, request, input.passkey);
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

type PasskeyAnswer = NonNullable<Parameters<Auth["api"]["verifyPasskeyAuthentication"]>[0]>["body"]["response"];

/**
 * A passkey's answer, checked by the passkey plugin itself (its challenge, stored when the browser asked for
 * `generate-authenticate-options`, used once; the origin, RP id, signature and counter), so passkeys have one check.
 * The credential must be one of the signed-in person's: another account's is refused before the plugin sees it.
 * The plugin's check ends in a sign-in: the session it opens is ended at once, and its cookie never sent.
 */
async function verifyOwnPasskey(
  auth: Auth,
  db: Kysely<Database>,
  { session, headers }: ReauthenticateRequest,
  response: { id: string },
): Promise<void> {
  const owned = await db
    .selectFrom("passkey")
    .select("id")
    .where("credentialID", "=", response.id)
    .where("userId", "=", session.user.id)
    .executeTakeFirst();
  if (!owned) throw DomainError.of(REAUTHENTICATION_ERROR_CODES.INVALID_PASSKEY);
  // The schema checked the id; the plugin checks the rest of the answer (any malformed part is a 400 of its own).
  const body = { response: response as PasskeyAnswer };
  const verified = await auth.api.verifyPasskeyAuthentication({ headers, body }).catch((error: unknown) => {
    if (isAPIError(error) && error.statusCode < 500) throw DomainError.of(REAUTHENTICATION_ERROR_CODES.INVALID_PASSKEY);
    throw error;
  });
  const context = await auth.$context;
  await context.internalAdapter.deleteSession(verified.session.token);
  if (verified.session.userId !== session.user.id) throw DomainError.of(REAUTHENTICATION_ERROR_CODES.INVALID_PASSKEY);
}
