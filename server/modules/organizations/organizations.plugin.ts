import { getCurrentAdapter, getCurrentDBAdapterAsyncLocalStorage, runWithTransaction } from "@better-auth/core/context";
import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";

/** One of the auth instance's own API calls, asked for its headers as well as its answer. */
export type AuthApiCall = (input: { body: never; headers: Headers; returnHeaders: true }) => Promise<{ headers: Headers | null; response: unknown }>;

type TransactionalEndpoint = {
  path: string;
  /** The auth instance's own call for `path`, bound once the instance exists. */
  call: () => AuthApiCall;
  /** Runs first inside the transaction, e.g. to lock the row that concurrent calls contend for. */
  lock?: (adapter: Awaited<ReturnType<typeof getCurrentAdapter>>, body: Record<string, unknown>) => Promise<void>;
};

/**
 * Runs a better-auth endpoint (hooks included) again inside one database transaction and answers with its
 * result. Hooks that run inside this transaction must not query through the app's own Kysely instance:
 * on SQLite the transaction holds the only connection, so such a query would wait forever.
 */
function transactionalEndpoint(id: string, endpoint: TransactionalEndpoint): BetterAuthPlugin {
  return {
    id,
    hooks: {
      before: [
        {
          matcher: (context) => context.path === endpoint.path,
          handler: createAuthMiddleware(async (ctx) => {
            const storage = await getCurrentDBAdapterAsyncLocalStorage();
            // The re-entered call, already inside the transaction: let the endpoint run.
            if (storage.getStore()?.isTransactionActive) return;
            const body = (ctx.body ?? {}) as Record<string, unknown>;
            const result = await runWithTransaction(ctx.context.adapter, async () => {
              await endpoint.lock?.(await getCurrentAdapter(ctx.context.adapter), body);
              return endpoint.call()({ body: body as never, headers: ctx.headers ?? new Headers(), returnHeaders: true });
            });
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

/**
 * The spec: creating an organization and its owner membership is one step. better-auth 1.7 writes the
 * organization, the member, the default team and its team member one after the other, outside any
 * transaction, so a failure part-way leaves an organization without an owner.
 */
export function atomicOrganizationCreate(createOrganization: () => AuthApiCall): BetterAuthPlugin {
  return transactionalEndpoint("atomic-organization-create", { path: "/organization/create", call: createOrganization });
}

/**
 * better-auth 1.7 adds a team member by looking for the membership, inserting it, and when the insert hits
 * the unique index looking again to answer with the existing one. On PostgreSQL that second look runs in a
 * transaction the failed insert has aborted, so the later of two concurrent adds answered 500 where a
 * sequential repeat answers 200. Locking the team row first (a no-op update) makes concurrent adds to one
 * team take turns, and the later finds the membership as a repeat does.
 */
export function serializedTeamMemberAdd(addTeamMember: () => AuthApiCall): BetterAuthPlugin {
  return transactionalEndpoint("serialized-team-member-add", {
    path: "/organization/add-team-member",
    call: addTeamMember,
    async lock(adapter, body) {
      if (typeof body.teamId !== "string") return;
      await adapter.incrementOne({ model: "team", where: [{ field: "id", value: body.teamId }], increment: { memberCount: 0 } });
    },
  });
}
