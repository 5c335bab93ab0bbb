import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { passkey } from "@better-auth/passkey";
import { username } from "better-auth/plugins";
import type { Kysely } from "kysely";
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from "../../common/account.schemas";
import { isPlatformAdmin } from "../../common/permissions";
import type { Config } from "../config";
import type { Database } from "../db/schema";
import { platformAdmin } from "../modules/admin";
import type { Billing } from "../modules/billing";
import type { authMailNotices } from "../modules/mail";
import { accountDeletion, organizations } from "../modules/organizations";
import { enterpriseSso, type TxtLookup } from "../modules/sso";
import { publishOrganizationChanges } from "../modules/webhooks";
import { accountRules } from "./account-rules";
import { emailChange } from "./change-email";
import { freshAuthentication } from "./fresh-authentication";
import { markPasskeyUsed, passkeyRules, relyingParty } from "./passkey-rules";
import { adminEmails } from "./platform-admins";
import { signInMethods, type socialSignIn } from "./social-sign-in";
import { unconfirmedProviderEmail } from "./unconfirmed-provider-email";
import { specErrors } from "./spec-errors";
import { secondFactor } from "./two-factor";

/** The name authenticator apps and passkey prompts show. */
const APP_NAME = "Atrium";

type AuthPluginDeps = {
  db: Kysely<Database>;
  billing: Billing;
  dnsLookup: TxtLookup;
};

/** What the plugins take that `createAuth` builds once for its options too. */
type AuthPluginParts = {
  /**
   * The mail notices: their plugin, the invitation mail the organization plugin sends, the mail to the owner of an
   * address a provider did not confirm, and the notice to the old address of a changed one.
   */
  mailNotices: Pick<
    ReturnType<typeof authMailNotices>,
    "plugin" | "sendInvitationEmail" | "mailUnconfirmedProviderEmail" | "notifyEmailChanged"
  >;
  /** The sign-in providers: the generic OAuth plugin of the OpenID Connect ones. */
  social: Pick<ReturnType<typeof socialSignIn>, "plugin">;
};

export type AuthPluginConfig = Pick<
  Config,
  "baseUrl" | "authSecret" | "organizations" | "adminUserIds" | "adminEmails" | "socialProviders"
>;

/**
 * better-auth's plugins in the order they run: hooks run in this order and the first to answer ends a request,
 * init-time options (database hooks, schema fields) merge in it, later ones winning. Each entry says why it is
 * where it is; `plugins.test.ts` pins the order.
 */
export function authPlugins(config: AuthPluginConfig, deps: AuthPluginDeps, { mailNotices, social }: AuthPluginParts) {
  return [
    // First: a sensitive action of a session that did not sign in or re-check lately is refused before any other
    // plugin's rule reads its request (account deletion, e-mail and password changes, turning a second factor off,
    // deleting an organization).
    freshAuthentication({ db: deps.db }),
    // Then the account's own rules shape a request (the verification page, displayUsername, the password
    // change that ends other sessions) and a stored name before any other plugin's hook sees them.
    accountRules(),
    // Changing one's e-mail address: a refusal, the link's landing page (which the account rules' verify-email
    // hook leaves alone), and the audit entry and notice once a change took effect.
    emailChange({ db: deps.db, notifyEmailChanged: mailNotices.notifyEmailChanged }),
    // The OpenID Connect providers, then the rule that says when a configured one does not answer.
    social.plugin,
    signInMethods(config),
    // A sign-in through a provider that did not confirm an existing account's address answers as for an address
    // without an account.
    unconfirmedProviderEmail(config, mailNotices.mailUnconfirmedProviderEmail),
    // After the account rules: their update-user hook fills displayUsername before this plugin checks it.
    username({
      minUsernameLength: USERNAME_MIN_LENGTH,
      maxUsernameLength: USERNAME_MAX_LENGTH,
      usernameValidator: (value) => USERNAME_PATTERN.test(value),
    }),
    // After both sign-ins (e-mail and username): its after-hook turns a password sign-in of an account with a second
    // factor into `twoFactorRedirect` without a session. The TOTP secret and backup codes are stored encrypted; the
    // rules after it refuse a replayed code and end a sign-in at its fifth wrong code.
    ...secondFactor({ db: deps.db, issuer: APP_NAME }),
    // WebAuthn credentials, as a first factor or a second one; the relying party is BASE_URL's host and origin.
    passkey({
      ...relyingParty(config.baseUrl),
      rpName: APP_NAME,
      authentication: { afterVerification: markPasskeyUsed },
    }),
    // Right after it: the last-used date, and the answers the plugin gives to someone else's passkey or bad input.
    passkeyRules(),
    // better-auth's organization() then the app's organization rules: each audited operation runs its checks,
    // plan limits included, in the transaction of better-auth's write.
    ...organizations({
      db: deps.db,
      limits: {
        assertWithinLimit: deps.billing.assertWithinLimit,
        releaseOrganization: deps.billing.releaseOrganization,
      },
      publishChanges: publishOrganizationChanges,
      organizationLimit: config.organizations.limit,
      allowUserToCreateOrganization: async (user) =>
        config.organizations.whoMayCreate === "everyone" ||
        (config.organizations.whoMayCreate === "admins" &&
          isPlatformAdmin(user as { id: string; role?: string | null }, config.adminUserIds)),
      disableOrganizationDeletion: config.organizations.isDeletionDisabled,
      sendInvitationEmail: mailNotices.sendInvitationEmail,
    }),
    // @better-auth/sso then the app's SSO rules, after the organization plugin (its providers belong to organizations;
    // just-in-time membership counts the plan's seats as the organization rules do): owners and admins register
    // providers, audited; domains proven by DNS; discovery by address, domain or slug; the requireSso policy refuses
    // password sign-in on an organization's verified domains before the password is checked.
    ...enterpriseSso({
      db: deps.db,
      baseUrl: config.baseUrl,
      authSecret: config.authSecret,
      limits: { assertWithinLimit: deps.billing.assertWithinLimit },
      lookup: deps.dnsLookup,
    }),
    // better-auth's admin() then the app's admin rules, whose audited remove-user opens the transaction that the
    // account deletion below runs in.
    ...platformAdmin({
      db: deps.db,
      adminUserIds: config.adminUserIds,
      adminEmails: config.adminEmails,
      resetPasswordPath: "/reset-password",
    }),
    // After platformAdmin: its remove-user hook runs inside the admin module's transaction.
    accountDeletion({ db: deps.db, releaseOrganization: deps.billing.releaseOrganization }),
    // After admin(): its schema default for the role wins over admin()'s field.
    platformRoleDefault(),
    // After admin(): its create hook grants the role over the default role admin()'s hook sets.
    adminEmails({ db: deps.db, adminEmails: config.adminEmails }),
    // After the rules: the changed-password notice is an after-hook that mails only once the change went through.
    mailNotices.plugin,
    // Last: it rewrites the error answers of every plugin before it.
    specErrors(),
    // The options' type makes this a tuple, so the API's types know every plugin's endpoints and fields.
  ] satisfies BetterAuthOptions["plugins"];
}

/**
 * The default platform role as a schema default. A sign-up with a registered e-mail answers with a
 * synthetic user built from the schema (no account enumeration); without a default its `role` is null
 * while a real sign-up's is "user", which tells the two apart. Listed after admin() so it wins.
 */
function platformRoleDefault(): BetterAuthPlugin {
  return {
    id: "platform-role-default",
    schema: { user: { fields: { role: { type: "string", required: false, input: false, defaultValue: "user" } } } },
  };
}
