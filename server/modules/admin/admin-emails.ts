/**
 * Whether `ADMIN_EMAILS` makes this user a platform admin: a listed address, once verified (what the admin-emails
 * plugin of server/auth grants the role on). Such an admin cannot be demoted: the role would come back.
 */
type Listable = { email: string; emailVerified?: boolean | number | null };

export function isListedInAdminEmails(user: Listable, adminEmails: readonly string[]): boolean {
  return Boolean(user.emailVerified) && adminEmails.includes(user.email.toLowerCase());
}
