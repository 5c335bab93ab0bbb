import { Hono } from "hono";
import type { Kysely } from "kysely";
import { ERROR_CODES } from "../../../common/error-codes";
import type { AccountDeletionPreview } from "../../../common/organization.schemas";
import type { Database } from "../../db/schema";
import type { AppEnv, GetSession } from "../../http/app-env";
import { DomainError } from "../../../common/domain-error";
import { previewAccountDeletion } from "./account-deletion";

/**
 * Mounted at /api/account. `GET /deletion-preview`: what deleting the signed-in account would do to its
 * organizations, for the confirmation to list before the person confirms (the deletion itself re-checks it all
 * in its transaction).
 */
export function accountDeletionRoutes(deps: { getSession: GetSession; db: Kysely<Database> }) {
  return new Hono<AppEnv>().get("/deletion-preview", async (c) => {
    const session = await deps.getSession(c.req.raw.headers);
    if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    return c.json((await previewAccountDeletion(deps.db, session.user.id)) satisfies AccountDeletionPreview);
  });
}

export type AccountDeletionRoutes = ReturnType<typeof accountDeletionRoutes>;
