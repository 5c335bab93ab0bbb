import { Hono } from "hono";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { validate } from "../../http/validate";
import { deleteDevMails, findDevMails } from "./mail.repository";
import { listDevMailQuerySchema, type DevMail } from "./mail.schemas";

/** The dev mailbox's JSON API: mails newest first, filterable with `?to=`. Mounted only when the dev mailbox is on. */
export function devMailRoutes(deps: { db: Kysely<Database> }) {
  return new Hono()
    .get("/", validate("query", listDevMailQuerySchema), async (c) =>
      c.json((await findDevMails(deps.db, c.req.valid("query"))) satisfies DevMail[]),
    )
    .delete("/", async (c) => {
      await deleteDevMails(deps.db);
      return c.body(null, 204);
    });
}

export type DevMailRoutes = ReturnType<typeof devMailRoutes>;
