import { getCurrentDBAdapterAsyncLocalStorage, runWithTransaction } from "@better-auth/core/context";
import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";

/** The auth instance's create call, asked for its headers as well as its answer. */
export type CreateOrganizationCall = (input: {
  body: never;
  headers: Headers | undefined;
  returnHeaders: true;
}) => Promise<{ headers: Headers | null; response: unknown }>;

/**
 * The spec: creating an organization and its owner membership is one step. better-auth 1.7 writes the
 * organization, the member, the default team and its team member one after the other, outside any
 * transaction, so a failure part-way leaves an organization without an owner. This plugin runs the whole
 * create call (hooks included) again inside one database transaction and answers with its result.
 *
 * `createOrganization` is the auth instance's own API call, bound once the instance exists. Organization
 * hooks that run inside this transaction must not query through the app's own Kysely instance: on SQLite
 * the transaction holds the only connection, so such a query would wait forever.
 */
export function atomicOrganizationCreate(createOrganization: () => CreateOrganizationCall): BetterAuthPlugin {
  return {
    id: "atomic-organization-create",
    hooks: {
      before: [
        {
          matcher: (context) => context.path === "/organization/create",
          handler: createAuthMiddleware(async (ctx) => {
            const storage = await getCurrentDBAdapterAsyncLocalStorage();
            // The re-entered call, already inside the transaction: let the endpoint run.
            if (storage.getStore()?.isTransactionActive) return;
            const result = await runWithTransaction(ctx.context.adapter, () =>
              createOrganization()({ body: ctx.body as never, headers: ctx.headers, returnHeaders: true }),
            );
            // Cookies and headers the inner call set go out with this answer.
            const context = ctx.context as { responseHeaders?: Headers };
            result.headers?.forEach((value, key) => {
              context.responseHeaders ??= new Headers();
              if (key.toLowerCase() === "set-cookie") context.responseHeaders.append(key, value);
              else context.responseHeaders.set(key, value);
            });
            return result.response;
          }),
        },
      ],
    },
  };
}
