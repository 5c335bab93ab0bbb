// Plain functions (no zod), so the web app's error handling can read a ban's end without loading zod.

/**
 * What a banned user is told when a sign-in is refused (better-auth's BANNED_USER): the expiry, when there is one,
 * as an ISO instant the web app shows in the reader's own time. `banExpiryOf` reads it back.
 */
export function bannedUserMessage(banExpires: Date | string | null | undefined): string {
  return banExpires ? `Your account is banned until ${new Date(banExpires).toISOString()}.` : "Your account is banned.";
}

/** The expiry in a `bannedUserMessage`, or null for a ban without one (or any other text). */
export function banExpiryOf(message: string | null | undefined): Date | null {
  const match = /banned until (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\.$/.exec(message ?? "");
  return match ? new Date(match[1] as string) : null;
}

/** Whether a user's ban holds at `now`: banned, with no end or an end still ahead (an expired ban lifts itself). */
export function isBanned(
  user: { banned?: boolean | null; banExpires?: Date | string | null },
  now: Date = new Date(),
): boolean {
  return Boolean(user.banned) && (!user.banExpires || new Date(user.banExpires) > now);
}

/**
 * The header of a `get-session` answer without a session when the session it was asked about was signed out by a
 * ban that still holds (value `banned`): the web app's sign-in page then says why the person was signed out.
 */
export const SESSION_ENDED_HEADER = "x-session-ended";
