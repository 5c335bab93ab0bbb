import type { BetterAuthPlugin } from "better-auth";
import { changeEmail, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { Kysely } from "kysely";
import { z } from "zod";
import { DomainError } from "../../common/domain-error";
import { ACCOUNT_ERROR_CODES } from "../../common/error-codes";
import { currentDatabase } from "../db/current-database";
import type { Database } from "../db/schema";
import { CLIENT_IP_HEADER } from "../http/middleware/client-ip";
import { auditContextOf, matches, recordAuditEvent } from "../modules/audit";
import { EMAIL_CHANGED_PAGE, isAppPath } from "./landing-pages";

/** A change of address: the account's, the one it moves to. */
export type EmailChange = { userId: string; from: string; to: string };

/** Where the confirmation link goes on to from its page when the client named none of the app's paths. */
const ACCOUNT_PAGE = "/account";

/**
 * The claims of the token better-auth's change-email mails to the new address (`requestType`
 * "change-email-verification"): the account's address, the new one, the account.
 */
const emailChangeClaims = z.object({
  email: z.string(),
  updateTo: z.string(),
  requestType: z.literal("change-email-verification"),
  userId: z.string(),
});

/**
 * The change of address a verification token confirms, or nothing for any other token (sign-up, sign-in). It reads
 * the claims without checking the signature: it is called with a token better-auth has just signed (the mail) or
 * has just verified in the same request (the update below).
 */
export function emailChangeOf(token: string): EmailChange | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const claims = emailChangeClaims.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    return claims.success
      ? { userId: claims.data.userId, from: claims.data.email, to: claims.data.updateTo }
      : undefined;
  } catch {
    return undefined;
  }
}

const bodyOf = (ctx: { body?: unknown }) =>
  ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : undefined;

/**
 * Changing one's e-mail address (better-auth's `user.changeEmail`, with neither the unverified shortcut nor the
 * old address's confirmation step): `POST /change-email` mails a link to the new address, and the address changes
 * when it is opened (`/verify-email`), sessions kept. An address another account has gets the same answer and no
 * mail (better-auth's own rule); its owner is not told either, so the endpoint cannot be used to mail people.
 *
 * This plugin adds what better-auth lacks: the same address refused with a code (better-auth's "Email is the
 * same" has none), the link's landing page, and once the change took effect its audit entry and the notice to
 * the old address (`notifyEmailChanged`).
 */
export function emailChange(deps: {
  db: Kysely<Database>;
  notifyEmailChanged: (user: { name: string }, change: EmailChange) => Promise<void>;
}) {
  return {
    id: "email-change",
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            update: {
              // After the write: only a change that happened is recorded and announced. Only better-auth's
              // verify-email changes an address with a change-email token; an admin's update-user is not this.
              async after(user, context) {
                if (context?.path !== "/verify-email") return;
                const token = (context.query as { token?: unknown } | undefined)?.token;
                const change = typeof token === "string" ? emailChangeOf(token) : undefined;
                if (!change || change.userId !== user.id || change.to !== user.email) return;
                const audit = auditContextOf(
                  { user: { id: user.id, email: change.from, name: user.name }, session: { impersonatedBy: null } },
                  {
                    ipAddress: context.headers?.get(CLIENT_IP_HEADER),
                    userAgent: context.headers?.get("user-agent"),
                  },
                );
                await recordAuditEvent(await currentDatabase(deps.db), audit, {
                  action: "user.email_changed",
                  target: { type: "user", id: user.id, label: change.to },
                  details: { from: change.from, to: change.to },
                });
                await deps.notifyEmailChanged(user, change);
              },
            },
          },
        },
      },
    }),
    hooks: {
      before: [
        {
          matcher: matches(changeEmail),
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            const session = await getSessionFromCtx(ctx);
            // Without a session better-auth answers 401 itself.
            if (!body || typeof body.newEmail !== "string" || !session) return;
            if (body.newEmail.toLowerCase() === session.user.email.toLowerCase()) {
              throw DomainError.of(ACCOUNT_ERROR_CODES.EMAIL_UNCHANGED);
            }
            // The link lands on the page that says the address changed, then goes on where the client asked.
            const next =
              typeof body.callbackURL === "string" && isAppPath(body.callbackURL) ? body.callbackURL : ACCOUNT_PAGE;
            return {
              context: { body: { ...body, callbackURL: `${EMAIL_CHANGED_PAGE}?next=${encodeURIComponent(next)}` } },
            };
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
