import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { Kysely } from "kysely";
import { Webhook } from "standardwebhooks";
import type { Database } from "../../db/schema";
import { devWebhooksPage } from "./dev-webhooks.pages";
import * as repository from "./webhooks.repository";

/** The last deliveries the development receiver keeps showing. */
const SHOWN = 50;
const RECEIVER_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type", "user-agent"];

/**
 * The development webhook receiver at `basePath` (/dev/webhooks; never mounted in production, docs/decisions/0006):
 * register `<BASE_URL>/dev/webhooks` as an endpoint and every delivery is kept and shown on its page, with whether its
 * signature verifies against the secrets of the endpoints registered with that URL. It answers 200, so `npm start` is
 * complete offline. What it keeps goes after `retentionDays` (WEBHOOK_RETENTION_DAYS), with the delivery history.
 */
export function devWebhookRoutes(deps: {
  db: Kysely<Database>;
  basePath: string;
  receiverUrl: string;
  retentionDays: number;
}) {
  return new Hono()
    .use("*", async (c, next) => {
      await next();
      c.header("Cache-Control", "no-store");
    })
    .get("/", async (c) =>
      c.html(
        devWebhooksPage({
          receiverUrl: deps.receiverUrl,
          retentionDays: deps.retentionDays,
          receipts: await repository.listDevReceipts(deps.db, SHOWN),
        }),
      ),
    )
    .get("/receipts", async (c) => c.json(await repository.listDevReceipts(deps.db, SHOWN)))
    .post("/", async (c) => {
      const body = await c.req.text();
      const headers = Object.fromEntries(
        RECEIVER_HEADERS.flatMap((name) => {
          const value = c.req.header(name);
          return value === undefined ? [] : [[name, value]];
        }),
      );
      const now = new Date();
      const secrets = (await repository.findEndpointsByUrl(deps.db, deps.receiverUrl)).flatMap((row) =>
        repository.signingSecrets(row, now),
      );
      const verified = secrets.some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      await repository.insertDevReceipt(deps.db, { id: randomUUID(), headers, body, verified });
      return c.json({ received: true });
    });
}
