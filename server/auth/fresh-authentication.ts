import type { BetterAuthPlugin } from "better-auth";
import { changeEmail, changePassword, createAuthMiddleware, deleteUser, getSessionFromCtx } from "better-auth/api";
import type { Kysely } from "kysely";
import { DomainError } from "../../common/domain-error";
import {
  ERROR_CODES,
  FRESH_AUTHENTICATION_REQUIRED_MESSAGE,
  type ReauthenticationMethods,
} from "../../common/error-codes";
import { currentDatabase } from "../db/current-database";
import type { Database } from "../db/schema";
import { matches, matchesPluginEndpoints } from "../modules/audit";

/** How long a sign-in or a re-check lets a session take sensitive actions. */
export const FRESH_FOR_MS = 10 * 60 * 1000;

type SessionTimes = {
  createdAt: Date | string;
  reauthenticatedAt: Date | string | null;
  impersonatedBy: string | null;
};

/**
 * The one rule: a session is fresh for FRESH_FOR_MS after the later of its creation (every sign-in creates a
 * session: a password, a provider, a second factor's step, a verification link) and its last re-check. An
 * impersonation's session never is: an admin acting as someone cannot take their sensitive actions.
 *
 * better-auth's own `session.freshAge` is not used for this: it counts from the session's creation only, so only a
 * new session could make it fresh again, and it also gates reading the session list.
 */
export function isFreshSession(session: SessionTimes, now: number): boolean {
  if (session.impersonatedBy) return false;
  const lastProof = Math.max(
    new Date(session.createdAt).getTime(),
    session.reauthenticatedAt ? new Date(session.reauthenticatedAt).getTime() : 0,
  );
  return now - lastProof < FRESH_FOR_MS;
}

/** How the user can re-check: FRESH_AUTHENTICATION_REQUIRED's `details`, so the web offers only what works. */
export async function reauthenticationMethods(
  db: Kysely<Database>,
  userId: string,
  impersonating: boolean,
): Promise<ReauthenticationMethods> {
  if (impersonating) return { password: false, totp: false, passkey: false, providers: [] };
  const database = await currentDatabase(db);
  const [accounts, user, passkey] = await Promise.all([
    database.selectFrom("account").select(["providerId", "password"]).where("userId", "=", userId).execute(),
    database.selectFrom("user").select("twoFactorEnabled").where("id", "=", userId).executeTakeFirst(),
    database.selectFrom("passkey").select("id").where("userId", "=", userId).limit(1).executeTakeFirst(),
  ]);
  return {
    password: accounts.some((account) => account.providerId === "credential" && account.password),
    totp: Boolean(user?.twoFactorEnabled),
    passkey: passkey !== undefined,
    providers: accounts.filter((account) => account.providerId !== "credential").map((account) => account.providerId),
  };
}

/** Throws 403 FRESH_AUTHENTICATION_REQUIRED, with the ways to re-check, unless the session is fresh. */
export async function assertFreshSession(
  db: Kysely<Database>,
  session: { id: string; userId: string },
  now = Date.now(),
): Promise<void> {
  const row = await (
    await currentDatabase(db)
  )
    .selectFrom("session")
    .select(["createdAt", "reauthenticatedAt", "impersonatedBy"])
    .where("id", "=", session.id)
    .executeTakeFirst();
  if (row && isFreshSession(row, now)) return;
  const methods = await reauthenticationMethods(db, session.userId, Boolean(row?.impersonatedBy));
  throw new DomainError(ERROR_CODES.FRESH_AUTHENTICATION_REQUIRED, FRESH_AUTHENTICATION_REQUIRED_MESSAGE, methods);
}

/** Records a successful re-check on the session itself: no new session, no new cookie. */
export async function markSessionReauthenticated(db: Kysely<Database>, sessionId: string, now = new Date()) {
  await (
    await currentDatabase(db)
  )
    .updateTable("session")
    .set({ reauthenticatedAt: now.toISOString() })
    .where("id", "=", sessionId)
    .where("impersonatedBy", "is", null)
    .execute();
}

const sensitiveCoreEndpoints = matches(deleteUser, changeEmail, changePassword);
const sensitivePluginEndpoints = [
  matchesPluginEndpoints("two-factor", "disableTwoFactor"),
  matchesPluginEndpoints("organization", "deleteOrganization"),
];

/**
 * The adapter for better-auth's sensitive endpoints: a before-hook that refuses them for a session that is not
 * fresh. A request without a session is left to the endpoint, which answers 401 itself. The app's own sensitive
 * routes (a plan change) call `assertFreshSession` through the app's binding (server/app.ts).
 */
export function freshAuthentication(deps: { db: Kysely<Database> }) {
  return {
    id: "fresh-authentication",
    hooks: {
      before: [
        {
          matcher: (context) =>
            sensitiveCoreEndpoints(context) || sensitivePluginEndpoints.some((matcher) => matcher(context)),
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx);
            if (!session) return;
            await assertFreshSession(deps.db, session.session);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
