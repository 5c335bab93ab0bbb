import { Hono } from "hono";
import { z } from "zod";
import { passwordSchema, tokenSchema } from "../../common/account.schemas";
import { DomainError } from "../../common/domain-error";
import { ERROR_CODES } from "../../common/error-codes";
import type { AppEnv, GetSession } from "../http/app-env";
import { validate } from "../http/validate";

/** What the route hands to the use case (server/auth/first-password.ts). */
export type FirstPasswordInput = { headers: Headers; userId: string; token: string; newPassword: string };

const firstPasswordSchema = z.strictObject({ token: tokenSchema, newPassword: passwordSchema });

/**
 * Mounted at /api/account. `POST /first-password` `{ token, newPassword }`: the signed-in person sets their first
 * password with the link mailed to them, and stays signed in (server/auth/first-password.ts). Guarded as every write
 * of the app's: the origin check and the write rate limits (server/http/middleware).
 */
export function firstPasswordRoutes(deps: {
  getSession: GetSession;
  setFirstPassword: (input: FirstPasswordInput) => Promise<void>;
}) {
  return new Hono<AppEnv>().post("/first-password", validate("json", firstPasswordSchema), async (c) => {
    const session = await deps.getSession(c.req.raw.headers);
    if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    await deps.setFirstPassword({ headers: c.req.raw.headers, userId: session.user.id, ...c.req.valid("json") });
    return c.json({ status: true as const });
  });
}

export type FirstPasswordRoutes = ReturnType<typeof firstPasswordRoutes>;
