import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { isBanned } from "../../../../common/ban-message";
import type { Database } from "../../../db/schema";

/** The key a signed-out session is remembered by: a hash of its token, never the token itself. */
function signedOutKey(token: string): string {
  return `ban-signed-out:${createHash("sha256").update(token).digest("hex")}`;
}

/**
 * A ban signs its user out of every session (better-auth deletes them). Before it does, each session is remembered
 * until it would have expired, so a tab still holding one can be told why it was signed out instead of landing on
 * the sign-in page without a word. Kept in better-auth's table of short-lived values; keyed by the token's hash, so
 * running twice (the audited endpoint's hooks run again in its transaction) changes nothing.
 */
export async function rememberBannedSessions(db: Kysely<Database>, userId: string): Promise<void> {
  const sessions = await db.selectFrom("session").select(["token", "expiresAt"]).where("userId", "=", userId).execute();
  if (sessions.length === 0) return;
  const now = new Date().toISOString();
  await db
    .insertInto("verification")
    .values(
      sessions.map((session) => ({
        id: signedOutKey(session.token),
        identifier: signedOutKey(session.token),
        value: userId,
        expiresAt: new Date(session.expiresAt).toISOString(),
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
}

/**
 * Whether the session with this token (one better-auth no longer has) was signed out by a ban that still holds: a
 * ban lifted since, or one that has run out, says nothing. Only the holder of the session's signed cookie can ask.
 */
export async function wasSignedOutByBan(db: Kysely<Database>, token: string, now = new Date()): Promise<boolean> {
  const user = await db
    .selectFrom("verification")
    .innerJoin("user", "user.id", "verification.value")
    .select(["user.banned", "user.banExpires"])
    .where("verification.identifier", "=", signedOutKey(token))
    .where("verification.expiresAt", ">", now.toISOString())
    .executeTakeFirst();
  return user !== undefined && isBanned({ banned: Boolean(user.banned), banExpires: user.banExpires }, now);
}
