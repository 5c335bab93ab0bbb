import { Hono } from "hono";
import { reauthenticateSchema, type ReauthenticateInput } from "../../common/account.schemas";
import { DomainError } from "../../common/domain-error";
import { ERROR_CODES } from "../../common/error-codes";
import type { AppEnv, AppSession, GetSession } from "../http/app-env";
import { validate } from "../http/validate";

/** What the route hands to the use case (server/auth/reauthenticate.ts). */
export type ReauthenticateRequest = { headers: Headers; session: AppSession; input: ReauthenticateInput };

/**
 * Mounted at /api/account. `POST /reauthenticate` `{ password }` or `{ code }`: the re-check that makes the current
 * session fresh again for the sensitive actions. Its own tight rate limit (`app:reauthenticate`) bounds guesses.
 */
export function reauthenticateRoutes(deps: {
  getSession: GetSession;
  reauthenticate: (request: ReauthenticateRequest) => Promise<void>;
}) {
  return new Hono<AppEnv>().post("/reauthenticate", validate("json", reauthenticateSchema), async (c) => {
    const session = await deps.getSession(c.req.raw.headers);
    if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    await deps.reauthenticate({ headers: c.req.raw.headers, session, input: c.req.valid("json") });
    return c.json({ status: true as const });
  });
}

export type ReauthenticateRoutes = ReturnType<typeof reauthenticateRoutes>;
