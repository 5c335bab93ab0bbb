import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { ageSeconds, gauge, type BacklogMetrics } from "../../http/metrics";

type StatusRow = { status: string; count: number | string; oldest: Date | string | null };

/**
 * The billing queues' backlog for /metrics: webhook events waiting to be applied or given up on, usage events
 * waiting to be reported or given up on, and the age of the oldest one waiting in each.
 */
export function billingBacklogMetrics(db: Kysely<Database>): BacklogMetrics {
  return async (now) => {
    const [webhooks, usage] = await Promise.all([
      db
        .selectFrom("billing_webhook_event")
        .select((eb) => [
          "status",
          eb.fn.countAll<number | string>().as("count"),
          eb.fn.min("received_at").as("oldest"),
        ])
        .where("status", "in", ["pending", "failed"])
        .groupBy("status")
        .execute(),
      db
        .selectFrom("billing_usage_event")
        .select((eb) => ["status", eb.fn.countAll<number | string>().as("count"), eb.fn.min("created_at").as("oldest")])
        .where("status", "in", ["pending", "failed"])
        .groupBy("status")
        .execute(),
    ]);
    const byStatus = (rows: StatusRow[], status: string) => rows.find((row) => row.status === status);
    const countOf = (rows: StatusRow[], status: string) => Number(byStatus(rows, status)?.count ?? 0);
    return [
      gauge(
        "atrium_billing_webhook_events",
        "Billing webhook events received and not applied, by status: pending (to apply), failed (given up).",
        [
          { labels: { status: "pending" }, value: countOf(webhooks, "pending") },
          { labels: { status: "failed" }, value: countOf(webhooks, "failed") },
        ],
      ),
      gauge(
        "atrium_billing_webhook_oldest_pending_age_seconds",
        "Age of the oldest billing webhook event waiting to be applied; 0 when none waits.",
        [{ value: ageSeconds(byStatus(webhooks, "pending")?.oldest, now) }],
      ),
      gauge(
        "atrium_billing_usage_events",
        "Usage events not yet reported to the billing provider, by status: pending (to send), failed (given up).",
        [
          { labels: { status: "pending" }, value: countOf(usage, "pending") },
          { labels: { status: "failed" }, value: countOf(usage, "failed") },
        ],
      ),
      gauge(
        "atrium_billing_usage_oldest_pending_age_seconds",
        "Age of the oldest usage event waiting to be reported; 0 when none waits.",
        [{ value: ageSeconds(byStatus(usage, "pending")?.oldest, now) }],
      ),
    ];
  };
}
