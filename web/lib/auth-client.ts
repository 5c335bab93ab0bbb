import { adminClient, organizationClient, usernameClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { carryRetryAfter } from "./api-error";
import { organizationAccessControl, organizationRoles, platformAccessControl, platformRoles } from "../../common/permissions";

/** The one better-auth client of the web app; it calls /api/auth on the page's own origin. */
export const authClient = createAuthClient({
  fetchOptions: { onResponse: carryRetryAfter },
  plugins: [
    usernameClient(),
    organizationClient({ ac: organizationAccessControl, roles: organizationRoles, teams: { enabled: true } }),
    adminClient({ ac: platformAccessControl, roles: platformRoles }),
  ],
});

export type Session = typeof authClient.$Infer.Session;
export type SessionUser = Session["user"];
