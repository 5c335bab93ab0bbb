import type { BetterAuthPlugin } from "better-auth";
import {
  changePassword,
  createAuthMiddleware,
  deleteUser,
  getSessionFromCtx,
  updateUser,
  verifyEmail,
} from "better-auth/api";
import { sql, type Kysely } from "kysely";
import { DomainError } from "../../common/domain-error";
import { displayNameFrom } from "../../common/display-name";
import { ACCOUNT_ERROR_CODES } from "../../common/error-codes";
import { currentDatabase } from "../db/current-database";
import type { Database } from "../db/schema";
import { matches } from "../modules/audit";
import { EMAIL_CHANGED_PAGE, EMAIL_VERIFIED_PAGE, isAppPath } from "./landing-pages";

const bodyOf = (ctx: { body?: unknown }) =>
  ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : undefined;

/**
 * A user's name as stored. Requests are checked with the display-name rule before this (request-schemas.ts),
 * but a sign-in provider's profile name arrives unchecked: it is cleaned the same way, and when nothing visible
 * is left the address's local part (or "Member") stands in.
 */
function storedUserName(user: { name?: unknown; email?: unknown }): string {
  const localPart = typeof user.email === "string" ? (user.email.split("@")[0] ?? "") : "";
  return displayNameFrom(typeof user.name === "string" ? user.name : "") ?? displayNameFrom(localPart) ?? "Member";
}

/** The spec's account rules better-auth 1.7 does not apply itself. */
export function accountRules() {
  return {
    id: "account-rules",
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            create: {
              async before(user) {
                const name = storedUserName(user);
                return name === user.name ? undefined : { data: { ...user, name } };
              },
            },
            update: {
              async before(user) {
                if (typeof user.name !== "string") return undefined;
                const name = displayNameFrom(user.name);
                return name === undefined || name === user.name ? undefined : { data: { ...user, name } };
              },
            },
          },
        },
      },
    }),
    hooks: {
      before: [
        {
          // A verification link lands on the web app's page that says the address is verified (or why the link
          // did not work: better-auth adds `error=` to the address it redirects to), then offers the way on to
          // where the link was going. Links of every origin (sign-up, sign-in, resend) go through here.
          matcher: matches(verifyEmail),
          handler: createAuthMiddleware(async (ctx) => {
            const query = (ctx.query ?? {}) as Record<string, unknown>;
            const next = typeof query.callbackURL === "string" && query.callbackURL ? query.callbackURL : "/";
            // Only the app's own paths: any other address is left to better-auth's origin check, which refuses it.
            // A new address's confirmation already lands on its own page (change-email.ts).
            if (!isAppPath(next) || next.startsWith(EMAIL_VERIFIED_PAGE) || next.startsWith(EMAIL_CHANGED_PAGE)) return;
            return {
              context: { query: { ...query, callbackURL: `${EMAIL_VERIFIED_PAGE}?next=${encodeURIComponent(next)}` } },
            };
          }),
        },
        {
          // displayUsername is copied from username when missing; better-auth 1.7 does so on sign-up only.
          matcher: matches(updateUser()),
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            if (body && typeof body.username === "string" && body.displayUsername === undefined) {
              return { context: { body: { ...body, displayUsername: body.username } } };
            }
          }),
        },
        {
          // better-auth deletes an account without its password when the session is less than a day old.
          // That is for people who have no password (they signed up through a provider); whoever has one gives it.
          matcher: matches(deleteUser),
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            if (body?.password !== undefined || body?.token !== undefined) return;
            const session = await getSessionFromCtx(ctx);
            if (!session) return;
            const accounts = await ctx.context.internalAdapter.findAccountByUserId(session.user.id);
            if (accounts.some((account) => account.providerId === "credential" && account.password)) {
              throw DomainError.of(ACCOUNT_ERROR_CODES.PASSWORD_REQUIRED);
            }
          }),
        },
        {
          // A "change" to the password already in use is refused, once the current password is proven right (a
          // wrong one gets better-auth's own INVALID_PASSWORD, as for any other new password). A password change
          // ends every other session, whatever the client asked for.
          matcher: matches(changePassword),
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            if (!body) return;
            if (typeof body.newPassword === "string" && body.newPassword === body.currentPassword) {
              const session = await getSessionFromCtx(ctx);
              const account = session ? await ctx.context.internalAdapter.findCredentialAccount(session.user.id) : null;
              if (
                account?.password &&
                (await ctx.context.password.verify({ hash: account.password, password: body.newPassword }))
              ) {
                throw DomainError.of(ACCOUNT_ERROR_CODES.PASSWORD_UNCHANGED);
              }
            }
            return { context: { body: { ...body, revokeOtherSessions: true } } };
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/**
 * A completed password reset proves the person reads the account's mailbox, which is what verifying the e-mail
 * proves: the address counts as verified. A user created by an admin with an invitation to set a password
 * signs in right after setting it, without a second mail.
 */
export async function verifyEmailOnPasswordReset(
  db: Kysely<Database>,
  user: { id: string; emailVerified?: boolean | null },
): Promise<void> {
  if (user.emailVerified) return;
  await (
    await currentDatabase(db)
  )
    .updateTable("user")
    .set({ emailVerified: sql<boolean>`true` })
    .where("id", "=", user.id)
    .execute();
}
