import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/database";
import { createTestApp, type TestApp } from "../test/test-database";
import { claimJob, rescheduleJob, runScheduledJob } from "./job-schedule";

/**
 * The claim every shared job goes through (docs/decisions/0013). The app's own connection and a second one to the same
 * database stand for two instances: on PostgreSQL two pools, on SQLite two connections to one file.
 */

let app: TestApp;
let other: DatabaseHandle;

beforeAll(async () => {
  app = await createTestApp();
  other = openDatabase(app.config.database);
});

afterAll(async () => {
  await other?.close();
  await app?.close();
});

const nextRunOf = async (name: string) =>
  new Date(
    (await app.db.selectFrom("job_schedule").select("next_run_at").where("name", "=", name).executeTakeFirstOrThrow())
      .next_run_at,
  ).getTime();

describe("claimJob", () => {
  test("a job never seen is due at once: the first claim inserts it, held until now + hold; a second claim gets nothing", async () => {
    const before = Date.now();
    const claim = await claimJob(app.db, "new job", 60_000);
    expect(claim).toMatchObject({ name: "new job" });
    expect(await nextRunOf("new job")).toBeGreaterThanOrEqual(before + 60_000);
    expect(await claimJob(other.db, "new job", 60_000)).toBeNull();
    expect(await claimJob(app.db, "new job", 60_000)).toBeNull();
  });

  test("of many claims at once from two connections, exactly one wins", async () => {
    await claimJob(app.db, "contended", 0);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, index) => claimJob(index % 2 ? app.db : other.db, "contended", 60_000)),
    );
    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
  });

  test("once the hold has run out, the job is claimed again, and only the latest claim may reschedule it", async () => {
    const first = (await claimJob(app.db, "lease", 0))!;
    const second = await claimJob(other.db, "lease", 60_000);
    expect(second).not.toBeNull();
    expect(await rescheduleJob(app.db, first, new Date())).toBe(false);
    expect(await claimJob(app.db, "lease", 60_000)).toBeNull();
    expect(await rescheduleJob(other.db, second!, new Date())).toBe(true);
    expect(await claimJob(app.db, "lease", 60_000)).not.toBeNull();
  });
});

describe("runScheduledJob", () => {
  test("runs once per period across instances", async () => {
    const runs: string[] = [];
    expect(await runScheduledJob(app.db, "periodic", 60_000, async () => void runs.push("app"))).toBe(true);
    expect(await runScheduledJob(other.db, "periodic", 60_000, async () => void runs.push("other"))).toBe(false);
    expect(runs).toEqual(["app"]);
  });

  test("a run that fails is due again at once: the next poll retries it", async () => {
    await expect(
      runScheduledJob(app.db, "failing", 60_000, async () => {
        throw new Error("database hiccup");
      }),
    ).rejects.toThrow("database hiccup");
    expect(await nextRunOf("failing")).toBeLessThanOrEqual(Date.now());
    expect(await runScheduledJob(other.db, "failing", 60_000, async () => undefined)).toBe(true);
  });
});
