import type { BetterAuthPlugin } from "better-auth";
import { APIError, changePassword, createAuthMiddleware } from "better-auth/api";
import { isBanned } from "../../../common/ban-message";
import { matches } from "../audit";
import type { MailQueue } from "./mail.service";
import {
  emailChangedMail,
  emailChangeMail,
  existingAccountMail,
  invitationMail,
  noticeMail,
  passwordResetMail,
  unconfirmedProviderEmailMail,
  verificationMail,
  type SignInKind,
} from "./mail.templates";

type Person = { id: string; email: string; name: string };
/** The admin plugin's fields on the user better-auth hands over. */
type BanState = { banned?: boolean | null; banExpires?: Date | string | null };

/** A change of an account's e-mail address: from the one it had to the new one. */
type AddressChange = { from: string; to: string };

/**
 * The invitation mail, sent by better-auth's invitations and by an API key's (server/modules/organizations): a
 * person's names its inviter, an API key's (`inviter` null) names the organization.
 */
export function invitationNotice(mail: MailQueue, baseUrl: string) {
  return async function sendInvitationEmail(input: {
    id: string;
    email: string;
    role: string;
    organization: { name: string };
    inviter: { user: { name: string } } | null;
  }): Promise<void> {
    await mail.enqueue({
      to: input.email,
      ...invitationMail({
        inviterName: input.inviter?.user.name ?? null,
        organizationName: input.organization.name,
        role: input.role,
        url: `${baseUrl}/invitations/${input.id}?email=${encodeURIComponent(input.email)}`,
      }),
    });
  };
}

/**
 * Every mail better-auth has the app send, in one place: the callbacks its options take (spread into
 * `emailAndPassword`, `emailVerification`, `user.deleteUser`, and the organization plugin's
 * `sendInvitationEmail`), and a plugin for the notice no callback covers (a changed password).
 */
export function authMailNotices(
  mail: MailQueue,
  options: {
    baseUrl: string;
    signInKind: (userId: string) => Promise<SignInKind>;
    /** The change of address a verification token confirms (better-auth sends both kinds through one callback). */
    emailChangeOf: (token: string) => AddressChange | undefined;
  },
) {
  const appUrl = (pathname: string) => `${options.baseUrl}${pathname}`;
  const notify = (user: Person, subject: string, message: string) =>
    mail.enqueue({ to: user.email, ...noticeMail({ name: user.name, subject, message }) });

  return {
    emailAndPassword: {
      async sendResetPassword({ user, url }: { user: Person & BanState; url: string }) {
        // A banned person could not sign in with the new password: the answer is the same, the mail is not sent.
        if (isBanned(user)) return;
        await mail.enqueue({
          to: user.email,
          ...passwordResetMail({ name: user.name, url, signIn: await options.signInKind(user.id) }),
        });
      },
      async onPasswordReset({ user }: { user: Person }) {
        await notify(
          user,
          "Your password was reset",
          "Your password was just reset, and every session of your account was signed out.",
        );
      },
      async onExistingUserSignUp({ user }: { user: Person }) {
        await mail.enqueue({
          to: user.email,
          ...existingAccountMail({
            name: user.name,
            signInUrl: appUrl("/sign-in"),
            resetUrl: appUrl("/forgot-password"),
          }),
        });
      },
    },
    emailVerification: {
      // Also the link that confirms a new address: better-auth hands it the user with the new address.
      async sendVerificationEmail({ user, url, token }: { user: Person; url: string; token: string }) {
        const change = options.emailChangeOf(token);
        await mail.enqueue({
          to: user.email,
          ...(change
            ? emailChangeMail({ name: user.name, ...change, url })
            : verificationMail({ name: user.name, url })),
        });
      },
    },
    /** Told to the address an account had, once the change to a new one took effect. */
    async notifyEmailChanged(user: { name: string }, change: AddressChange) {
      await mail.enqueue({ to: change.from, ...emailChangedMail({ name: user.name, ...change }) });
    },
    deleteUser: {
      async afterDelete(user: Person) {
        await notify(
          user,
          "Your account was deleted",
          "Your Atrium account and its sessions were deleted, as you asked.",
        );
      },
    },
    /** A sign-in through a provider that did not confirm this account's address (server/auth/unconfirmed-provider-email.ts). */
    async mailUnconfirmedProviderEmail({ user, providerName }: { user: Person; providerName: string }) {
      await mail.enqueue({
        to: user.email,
        ...unconfirmedProviderEmailMail({ name: user.name, providerName, signInUrl: appUrl("/sign-in") }),
      });
    },
    sendInvitationEmail: invitationNotice(mail, options.baseUrl),
    plugin: {
      id: "mail-notices",
      hooks: {
        after: [
          {
            matcher: matches(changePassword),
            handler: createAuthMiddleware(async (ctx) => {
              if (ctx.context.returned instanceof APIError || !ctx.context.session) return;
              const { user } = ctx.context.session;
              await notify(
                user,
                "Your password was changed",
                "The password of your account was just changed, and your other sessions were signed out.",
              );
            }),
          },
        ],
      },
    } satisfies BetterAuthPlugin,
  };
}
