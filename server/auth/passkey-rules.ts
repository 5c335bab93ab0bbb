import type { BetterAuthPlugin } from "better-auth";
import { PASSKEY_ERROR_CODES, type PasskeyOptions } from "@better-auth/passkey";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { matchesPluginEndpoints } from "../modules/audit";

type AuthenticationOptions = NonNullable<PasskeyOptions["authentication"]>;

/**
 * The relying party of @better-auth/passkey, from BASE_URL: its host is the RP id every passkey is bound to (a passkey
 * made for one host is never offered to another, so a new domain means new passkeys), and its origin the only one
 * whose ceremonies verify, whatever Origin header a request carries.
 */
export function relyingParty(baseUrl: string): Pick<PasskeyOptions, "rpID" | "origin"> {
  const url = new URL(baseUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/**
 * Records when a passkey signed someone in: the plugin calls this once the assertion verified, before it opens the
 * session; the plugin itself keeps only the signature counter.
 */
export const markPasskeyUsed: NonNullable<AuthenticationOptions["afterVerification"]> = async ({
  ctx,
  verification,
}) => {
  await ctx.context.adapter.update({
    model: "passkey",
    where: [{ field: "credentialID", value: verification.authenticationInfo.credentialID }],
    update: { lastUsedAt: new Date() },
  });
};

/**
 * The app's rules around @better-auth/passkey (listed right after it):
 * - the `lastUsedAt` field (migration 0016), which `markPasskeyUsed` sets and the list of passkeys returns;
 * - renaming or deleting a passkey of someone else answers as for one that does not exist (404 PASSKEY_NOT_FOUND),
 *   where the plugin answers 401 and so tells that the id exists;
 * - a registration response the plugin cannot parse answers 400, not the plugin's 500: its verification throws on
 *   malformed input (or a wrong origin or RP id) and it answers every such throw as a server failure.
 */
export function passkeyRules(): BetterAuthPlugin {
  return {
    id: "passkey-rules",
    schema: {
      passkey: { fields: { lastUsedAt: { type: "date", required: false, input: false } } },
    },
    hooks: {
      before: [
        {
          matcher: matchesPluginEndpoints("passkey", "deletePasskey", "updatePasskey"),
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx);
            const id = (ctx.body as { id?: unknown } | undefined)?.id;
            // Without a session or an id the plugin's own checks answer (401, 400).
            if (!session || typeof id !== "string") return;
            const owned = await ctx.context.adapter.findOne({
              model: "passkey",
              where: [
                { field: "id", value: id },
                { field: "userId", value: session.user.id },
              ],
            });
            if (!owned) throw APIError.from("NOT_FOUND", PASSKEY_ERROR_CODES.PASSKEY_NOT_FOUND);
          }),
        },
      ],
    },
    async onResponse(response) {
      if (response.status !== 500) return;
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: string } | null;
      if (body?.code !== PASSKEY_ERROR_CODES.FAILED_TO_VERIFY_REGISTRATION.code) return;
      const headers = new Headers(response.headers);
      headers.delete("content-length");
      return { response: new Response(JSON.stringify(body), { status: 400, headers }) };
    },
  };
}
