import { adminClient, organizationClient, twoFactorClient, usernameClient } from "better-auth/client/plugins";
import { passkeyClient } from "@better-auth/passkey/client";
import { createAuthClient } from "better-auth/react";
import { carryRetryAfter } from "./api-error";
import {
  organizationAccessControl,
  organizationRoles,
  platformAccessControl,
  platformRoles,
} from "../../common/permissions";

/** The better-auth client itself. Import `authClient` from ./auth-client, which loads this module on first use. */
export const betterAuthClient = createAuthClient({
  fetchOptions: { onResponse: carryRetryAfter },
  plugins: [
    usernameClient(),
    organizationClient({ ac: organizationAccessControl, roles: organizationRoles, teams: { enabled: true } }),
    adminClient({ ac: platformAccessControl, roles: platformRoles }),
    twoFactorClient(),
    passkeyClient(),
  ],
});
