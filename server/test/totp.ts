import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";

/** The period better-auth's TOTP uses (and the URI says). */
const PERIOD_SECONDS = 30;

/**
 * The code an authenticator app set up from `totpURI` shows `offset` steps from now (0: now, 1: the next step's,
 * which the server accepts too). Tests that use more than one code per user take a later step for each, since a
 * code of a step already used is refused.
 */
export async function totpCode(totpURI: string, offset = 0): Promise<string> {
  const secret = totpSecretOf(totpURI);
  const step = Math.floor(Date.now() / (PERIOD_SECONDS * 1000)) + offset;
  return createOTP(base32.decode(secret), { period: PERIOD_SECONDS }).hotp(step);
}

/** The secret an authenticator app reads from `totpURI` (base32, as people type it). */
export function totpSecretOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${totpURI}`);
  return secret;
}
