import type { BetterAuthPlugin } from "better-auth";
import type { Kysely } from "kysely";
import { isPlatformAdmin } from "../../common/permissions";
import { isListedInAdminEmails } from "../modules/admin";
import type { Database } from "../db/schema";

/**
 * `ADMIN_EMAILS` makes a platform admin of a listed address only once the address is proven: at creation
 * when the user arrives verified (a social provider that vouches for it), otherwise when it is verified.
 * Granting at sign-up would make an admin of whoever registers the address first, or of a social account
 * whose provider does not vouch for it.
 */
export function adminEmails(deps: { db: Kysely<Database>; adminEmails: readonly string[] }): BetterAuthPlugin {
  const isListed = (user: Parameters<typeof isListedInAdminEmails>[0]) => isListedInAdminEmails(user, deps.adminEmails);
  return {
    id: "admin-emails",
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            create: {
              async before(user) {
                return isListed(user) ? { data: { ...user, role: "admin" } } : undefined;
              },
            },
            update: {
              // Runs after better-auth's transaction has committed, so the app's own connection is free.
              async after(user) {
                const updated = user as typeof user & { role?: string | null };
                if (!isListed(updated) || isPlatformAdmin(updated, [])) return;
                await deps.db.updateTable("user").set({ role: "admin" }).where("id", "=", updated.id).execute();
              },
            },
          },
        },
      },
    }),
  };
}
