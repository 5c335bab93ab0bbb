import { defineRequestState } from "@better-auth/core/context";
import type { BetterAuthPlugin } from "better-auth";
import { callbackOAuth, createAuthMiddleware, isAPIError } from "better-auth/api";
import type { Config } from "../config";
import { matches } from "../modules/audit";

/** What a provider said about the person signing in, on this request: their e-mail and whether it vouches for it. */
const assertion = defineRequestState<{ email: string; emailVerified: boolean } | null>(() => null);

/** Called by every provider's user info (server/auth/social-sign-in.ts), before better-auth looks the e-mail up. */
export async function recordProviderAssertion(user: { email?: unknown; emailVerified?: unknown }): Promise<void> {
  if (typeof user.email !== "string") return;
  await assertion.set({ email: user.email.toLowerCase(), emailVerified: user.emailVerified === true });
}

type Owner = { id: string; email: string; name: string };

/**
 * A sign-in through a provider that does not vouch for its e-mail gets one answer whether or not an account has
 * that address, so the answer never says which addresses have one. better-auth refuses to link such an identity to
 * the existing account and says so (`?error=account_not_linked`); for an address without an account it signs the
 * person up unverified and mails a link (`?error=email_not_verified`). Here the first is answered as the second:
 * the same redirect, and a mail to the address, which tells its owner what happened (`mailOwner`).
 *
 * better-auth's other reason for account_not_linked, an account whose own address is not verified yet while the
 * provider vouches for it, keeps its answer: the provider says the person holds that address.
 */
export function unconfirmedProviderEmail(
  config: Pick<Config, "socialProviders">,
  mailOwner: (input: { user: Owner; providerName: string }) => Promise<void>,
): BetterAuthPlugin {
  return {
    id: "unconfirmed-provider-email",
    hooks: {
      after: [
        {
          matcher: matches(callbackOAuth),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!isAPIError(returned) || returned.statusCode !== 302) return;
            const location = new URL(new Headers(returned.headers).get("location") ?? "", ctx.context.baseURL);
            if (location.searchParams.get("error") !== "account_not_linked") return;
            const asserted = await assertion.get();
            if (!asserted || asserted.emailVerified) return;
            const found = await ctx.context.internalAdapter.findUserByEmail(asserted.email);
            if (found) {
              const providerId = ctx.params?.id;
              const provider = config.socialProviders.find((candidate) => candidate.id === providerId);
              await mailOwner({ user: found.user, providerName: provider?.name ?? "A sign-in provider" });
            }
            location.searchParams.set("error", "email_not_verified");
            throw ctx.redirect(location.toString());
          }),
        },
      ],
    },
  };
}
