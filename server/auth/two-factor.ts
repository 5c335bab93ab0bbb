import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { expireCookie } from "better-auth/cookies";
import { symmetricDecrypt } from "better-auth/crypto";
import { twoFactor } from "better-auth/plugins";
import { createOTP } from "@better-auth/utils/otp";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";

/** Wrong codes one sign-in may try before it ends and the password is asked again (better-auth counts them). */
export const CODE_ATTEMPTS_PER_SIGN_IN = 5;

/** better-auth's TOTP settings, which the plugin and the replay guard below must share: 30-second steps, ±1 step. */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_WINDOW_STEPS = 1;

/** The two-factor plugin's cookie of a sign-in waiting for its second factor, and its attempt counter's prefix. */
const PENDING_COOKIE = "two_factor";
const ATTEMPTS_PREFIX = "2fa-attempts-";

const VERIFY_TOTP = "/two-factor/verify-totp";
const CODE_CHECKS = new Set([VERIFY_TOTP, "/two-factor/verify-backup-code"]);
const WRONG_CODE = new Set(["INVALID_CODE", "INVALID_BACKUP_CODE"]);
/** Ten wrong codes in a row lock an account's code checks for 15 minutes (better-auth's lock). */
const ACCOUNT_LOCKED = "ACCOUNT_TEMPORARILY_LOCKED";

type RulesDeps = { db: Kysely<Database> };
/** `issuer`: the name authenticator apps show next to the code. */
type SecondFactorDeps = RulesDeps & { issuer: string };

/**
 * better-auth's two-factor plugin (TOTP and backup codes, both stored encrypted with the auth secret), then the
 * rules it does not apply itself. Listed after both password sign-ins: its after-hook turns the sign-in of an
 * account with a second factor into `twoFactorRedirect` without a session.
 */
export function secondFactor({ issuer, db }: SecondFactorDeps) {
  return [twoFactor({ issuer, totpOptions: { period: TOTP_PERIOD_SECONDS } }), twoFactorRules({ db })] as const;
}

/** The user a code check is for: the signed-in one (enrolment), or the one whose sign-in waits for a code. */
async function userOfCodeCheck(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]) {
  const session = await getSessionFromCtx(ctx);
  if (session) return session.user.id;
  const pending = await ctx.getSignedCookie(ctx.context.createAuthCookie(PENDING_COOKIE).name, ctx.context.secret);
  if (!pending) return null;
  return (await ctx.context.internalAdapter.findVerificationValue(pending))?.value ?? null;
}

/** The time step `code` belongs to, within the window the plugin accepts; null when it matches none. */
async function stepOf(secret: string, code: string): Promise<number | null> {
  const otp = createOTP(secret, { period: TOTP_PERIOD_SECONDS });
  const now = Math.floor(Date.now() / (TOTP_PERIOD_SECONDS * 1000));
  for (let offset = -TOTP_WINDOW_STEPS; offset <= TOTP_WINDOW_STEPS; offset += 1) {
    if ((await otp.hotp(now + offset)) === code) return now + offset;
  }
  return null;
}

/**
 * - A TOTP code works once: better-auth accepts any code of the current step or a neighbour, again and again. The
 *   last step accepted is kept per user (migration 0014) and claimed atomically; a code of that step or an earlier
 *   one is handed to the plugin as a wrong code, so it counts toward the attempt's limit like any other.
 * - The attempt ends at its fifth wrong code: better-auth refuses only the sixth call (whatever its code), so the
 *   person would type a right code into an attempt that can no longer succeed. Ending it at once says so.
 */
function twoFactorRules({ db }: RulesDeps): BetterAuthPlugin {
  return {
    id: "two-factor-rules",
    hooks: {
      before: [
        {
          matcher: (context) => context.path === VERIFY_TOTP,
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code;
            if (typeof code !== "string") return;
            const userId = await userOfCodeCheck(ctx);
            if (!userId) return;
            const row = await db
              .selectFrom("twoFactor")
              .select(["id", "secret"])
              .where("userId", "=", userId)
              .executeTakeFirst();
            if (!row) return;
            const step = await stepOf(
              await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret }),
              code,
            );
            if (step === null) return;
            const claimed = await db
              .updateTable("twoFactor")
              .set({ lastTotpStep: step })
              .where("id", "=", row.id)
              .where((eb) => eb.or([eb("lastTotpStep", "is", null), eb("lastTotpStep", "<", step)]))
              .executeTakeFirst();
            if (claimed.numUpdatedRows > 0n) return;
            return { context: { body: { ...(ctx.body as object), code: "" } } };
          }),
        },
      ],
      after: [
        {
          // A locked account's refusal says when the lock ends (Retry-After, in seconds), so the page can say when
          // to try again; better-auth's own answer carries no wait.
          matcher: (context) => CODE_CHECKS.has(context.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!isAPIError(returned) || returned.body?.code !== ACCOUNT_LOCKED) return;
            const userId = await userOfCodeCheck(ctx);
            if (!userId) return;
            const row = await db
              .selectFrom("twoFactor")
              .select("lockedUntil")
              .where("userId", "=", userId)
              .executeTakeFirst();
            const seconds = row?.lockedUntil ? Math.ceil((new Date(row.lockedUntil).getTime() - Date.now()) / 1000) : 0;
            if (seconds <= 0) return;
            throw new APIError("TOO_MANY_REQUESTS", returned.body, { "Retry-After": String(seconds) });
          }),
        },
        {
          matcher: (context) => CODE_CHECKS.has(context.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!isAPIError(returned) || !WRONG_CODE.has(String(returned.body?.code))) return;
            const cookie = ctx.context.createAuthCookie(PENDING_COOKIE);
            const pending = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
            if (!pending) return;
            const attempts = await ctx.context.internalAdapter.findVerificationValue(`${ATTEMPTS_PREFIX}${pending}`);
            if (!attempts || Number(attempts.value) < CODE_ATTEMPTS_PER_SIGN_IN) return;
            await ctx.context.internalAdapter.deleteVerificationByIdentifier(pending);
            await ctx.context.internalAdapter.deleteVerificationByIdentifier(`${ATTEMPTS_PREFIX}${pending}`);
            expireCookie(ctx, cookie);
            throw APIError.from("BAD_REQUEST", {
              code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
              message: "Too many attempts. Please request a new code.",
            });
          }),
        },
      ],
    },
  };
}
