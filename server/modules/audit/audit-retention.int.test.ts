import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import { auditRow } from "../../test/audit-harness";
import { waitFor } from "../../test/factories";
import { createTestApp, createTestDatabase } from "../../test/test-database";
import { purgeAuditLog } from "./index";

/**
 * The audit log's retention: purgeAuditLog, and the hourly purge of an app started with AUDIT_RETENTION_DAYS
 * (each test starts the apps it needs).
 */

describe("retention", () => {
  it("purgeAuditLog deletes the entries older than the retention period and keeps the rest; the hourly purge of an app started with AUDIT_RETENTION_DAYS applies it", async () => {
    const database = await createTestDatabase();
    try {
      const first = await createTestApp({ database });
      const day = 86_400_000;
      const now = Date.now();
      const aged = (label: string, ageMs: number) =>
        auditRow({ created_at: new Date(now - ageMs).toISOString(), actor_label: label });
      const rows = [
        aged("ancient", 400 * day),
        aged("just-over", 30 * day + 60_000),
        aged("just-under", 30 * day - 60_000),
        aged("fresh", 60_000),
      ];
      try {
        // The purge the app ran at its start is over before the old entries are arranged.
        await first.services.auditRetention.drain();
        await first.db.insertInto("audit_event").values(rows).execute();
        expect(await purgeAuditLog(first.db, 30, new Date(now))).toBe(2);
        const left = await first.db.selectFrom("audit_event").select("actor_label").orderBy("created_at").execute();
        expect(left.map((row) => row.actor_label)).toEqual(["just-under", "fresh"]);
        expect(await purgeAuditLog(first.db, 30, new Date(now))).toBe(0);
        await first.db
          .insertInto("audit_event")
          .values(aged("two days old", 2 * day))
          .execute();
      } finally {
        await first.close();
      }
      // The first app ran the purge when it started; an hour passes, and the purge is due as the app restarts.
      const { db: scheduleDb, close } = openDatabase(first.config.database);
      try {
        await scheduleDb
          .updateTable("job_schedule")
          .set({ next_run_at: new Date().toISOString() })
          .where("name", "=", "audit log purge")
          .execute();
      } finally {
        await close();
      }

      const restarted = await createTestApp({ database, env: { AUDIT_RETENTION_DAYS: "1" } });
      try {
        const labels = () =>
          restarted.db.selectFrom("audit_event").select("actor_label").orderBy("created_at").execute();
        await waitFor(async () => !(await labels()).some((row) => row.actor_label === "two days old"), {
          timeoutMs: 5_000,
          what: "the purge once due",
        });
        expect((await labels()).map((row) => row.actor_label)).toEqual(["fresh"]);
      } finally {
        await restarted.close();
      }
    } finally {
      await database.drop();
    }
  });
});
