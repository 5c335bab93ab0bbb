import { AsyncLocalStorage } from "node:async_hooks";
import { getCurrentAdapter, runWithTransaction } from "@better-auth/core/context";
import { createAuthMiddleware, dispatchAuthEndpoint, getSessionFromCtx } from "better-auth/api";
import type { Context } from "hono";
import type { Kysely } from "kysely";
import type { SessionEnv } from "../../http/app-env";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { CLIENT_IP_HEADER } from "../../http/middleware/client-ip";
import { matches } from "./endpoint-matcher";
import type { AuditContext, AuditEventInput } from "./audit.schemas";
import { recordAuditEvent } from "./audit.service";

type Endpoint = Parameters<typeof dispatchAuthEndpoint>[0];
type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The signed-in caller of an audited endpoint, as better-auth hands it to hooks. */
export type AuditedSession = {
  user: { id: string; email: string; name: string };
  session: { impersonatedBy?: string | null; activeOrganizationId?: string | null };
};

/** What an audited endpoint's `record` sees: the transaction, the request, the state before, and the endpoint's answer. */
export type AuditedCall<TPrior> = {
  db: Kysely<Database>;
  body: Record<string, unknown>;
  session: AuditedSession | null;
  prior: TPrior;
  response: unknown;
};

/** An entry to record; `actor` replaces the signed-in caller (stopping an impersonation is the admin's act). */
export type AuditRecord = AuditEventInput & { actor?: AuditContext["actor"]; impersonatorId?: string | null };

/** The call being re-run inside its transaction, so the hook lets it through the second time. */
const recording = new AsyncLocalStorage<string>();

const bodyOf = (ctx: HookContext) =>
  ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : {};

/** A request's context for its entries: the caller, the admin impersonating them, the client address the app resolved, the agent. */
export function auditContextOf(
  session: AuditedSession | null,
  request: { ipAddress: string | null | undefined; userAgent: string | null | undefined },
): AuditContext {
  return {
    actor: session
      ? { type: "user", id: session.user.id, label: session.user.email }
      : { type: "user", id: null, label: "anonymous" },
    impersonatorId: session?.session.impersonatedBy ?? null,
    ipAddress: request.ipAddress ?? null,
    userAgent: request.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
  };
}

const USER_AGENT_MAX_LENGTH = 500;

/** Who asks for a change through one of the app's own routes (behind a session guard), from where: for its entry. */
export function requestAuditContext<E extends SessionEnv>(c: Context<E>): AuditContext {
  const variables = c.var as SessionEnv["Variables"];
  const request = { ipAddress: variables.clientIp, userAgent: c.req.header("user-agent") };
  // An organization API key acts as itself: its id, so the log's actor filter finds what it did, and its name with its
  // first characters, which tell keys of one name apart.
  if (variables.apiKey) return { ...auditContextOf(null, request), actor: apiKeyActor(variables.apiKey) };
  return auditContextOf(variables.session, request);
}

/** The audit log's actor for an organization API key: "CI deploys (atr_Gz2k9Q…)". */
export function apiKeyActor(key: { id: string; name: string; prefix: string }): AuditContext["actor"] {
  return { type: "api_key", id: key.id, label: `${key.name} (${key.prefix}…)` };
}

/**
 * A before-hook that runs a better-auth endpoint (its hooks included) inside one database transaction together
 * with the audit entries it produces: the change and its entries commit together, or neither does (a refused or
 * failed call records nothing). `lock` runs first in the transaction (e.g. the row concurrent calls contend for);
 * `prior` reads what the entries need from before the change (an old role, a name about to be deleted).
 * Everything inside queries through `currentDatabase(db)`: on SQLite the transaction holds the only connection.
 */
export function auditedEndpoint<TPrior = undefined>(input: {
  db: Kysely<Database>;
  endpoint: Endpoint;
  lock?: (db: Kysely<Database>, body: Record<string, unknown>, session: AuditedSession | null) => Promise<void>;
  prior?: (
    db: Kysely<Database>,
    call: { body: Record<string, unknown>; session: AuditedSession | null },
  ) => Promise<TPrior>;
  record: (call: AuditedCall<TPrior>) => Promise<AuditRecord[]> | AuditRecord[];
  /**
   * What the endpoint's context gets besides (SSO registration trusts the origin of the issuer it discovers). It runs
   * before the transaction opens: the place for a network call the endpoint needs (SSO registration's discovery).
   */
  context?: (
    ctx: HookContext,
    body: Record<string, unknown>,
    session: AuditedSession | null,
  ) => Promise<Record<string, unknown>>;
}) {
  const { endpoint } = input;
  return {
    matcher: matches(endpoint),
    handler: createAuthMiddleware(async (ctx) => {
      if (recording.getStore() === endpoint.path) return;
      const body = bodyOf(ctx);
      const session = (await getSessionFromCtx(ctx)) as AuditedSession | null;
      const extraContext = (await input.context?.(ctx, body, session)) ?? {};
      const result = await runWithTransaction(ctx.context.adapter, () =>
        recording.run(endpoint.path, async () => {
          const db = await currentDatabase(input.db);
          await input.lock?.(db, body, session);
          const prior = (await input.prior?.(db, { body, session })) as TPrior;
          // Some endpoints query `ctx.context.adapter` directly (leaving counts the owners so): it must be the
          // transaction's. A nested runWithTransaction joins the open one, so the base adapter's `transaction` stays.
          const adapter = { ...ctx.context.adapter, ...(await getCurrentAdapter(ctx.context.adapter)) };
          const dispatched = (await dispatchAuthEndpoint(endpoint, {
            body,
            headers: ctx.headers ?? new Headers(),
            context: { ...ctx.context, ...extraContext, adapter, session: null },
            returnHeaders: true,
          })) as { headers?: Headers | null; response: unknown };
          const context = auditContextOf(session, {
            ipAddress: ctx.headers?.get(CLIENT_IP_HEADER),
            userAgent: ctx.headers?.get("user-agent"),
          });
          for (const { actor, impersonatorId, ...entry } of await input.record({
            db,
            body,
            session,
            prior,
            response: dispatched.response,
          })) {
            await recordAuditEvent(
              db,
              {
                ...context,
                actor: actor ?? context.actor,
                impersonatorId: impersonatorId === undefined ? context.impersonatorId : impersonatorId,
              },
              entry,
            );
          }
          return dispatched;
        }),
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
  };
}
