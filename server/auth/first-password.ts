import { BASE_ERROR_CODES } from "@better-auth/core/error";
import { APIError } from "better-auth/api";
import type { Auth } from "./auth";
import type { FirstPasswordInput } from "./first-password.routes";

/**
 * Someone who signed up through a provider sets their first password with the link mailed to them (better-auth's
 * password-reset token, so holding a session alone is not enough), and stays signed in: unlike a reset, which ends
 * every session, nothing suggests anyone else knows a password that did not exist. The link must be the signed-in
 * person's own and works once. better-auth's `setPassword` (server-only) refuses an account that has a password
 * already (400 PASSWORD_ALREADY_SET): a reset is the way to change one.
 */
export async function setFirstPassword(auth: Auth, input: FirstPasswordInput): Promise<void> {
  const { internalAdapter } = await auth.$context;
  const identifier = `reset-password:${input.token}`;
  const link = await internalAdapter.findVerificationValue(identifier);
  const isOwnLink = link !== null && link.expiresAt > new Date() && link.value === input.userId;
  if (!isOwnLink || !(await internalAdapter.consumeVerificationValue(identifier))) {
    throw APIError.from("BAD_REQUEST", BASE_ERROR_CODES.INVALID_TOKEN);
  }
  await auth.api.setPassword({ body: { newPassword: input.newPassword }, headers: input.headers });
}
