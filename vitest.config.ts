import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/** The longest integration files: each is short, a fuzz family set up by a shared suite (server/test/fuzz/). */
const LONGEST = /\/fuzz-[a-z]+\.int\.test\.ts$/;

/**
 * Vitest runs the files it has timed longest first; on a fresh clone it has timed none and runs the largest files
 * first, which put the fuzz files (8 to 110 lines, the longest to run) last, each alone at the end of the run.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLongest = (file: TestSpecification) => LONGEST.test(file.moduleId);
    return [...sorted.filter(isLongest), ...sorted.filter((file) => !isLongest(file))];
  }
}

// Three sizes of test (see docs/ARCHITECTURE.md): unit (no I/O) and integration (real database) run here,
// with the fault tests (real servers stopped and killed, PostgreSQL and Redis only);
// end-to-end specs run in Chromium through e2e/run.mjs. The web app's tests run in their own project, in a
// simulated DOM (happy-dom), so components can render.
export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: "unit",
          // vitest's default on two cores is one file at a time, which leaves a core idle.
          maxWorkers: 2,
          include: ["{server,common,billing-sandbox,scripts}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.int.test.ts", "**/*.fault.test.ts", "node_modules/**"],
          environment: "node",
        },
      },
      {
        test: {
          name: "web",
          maxWorkers: 2,
          // Typing through user-event is CPU work: a form test that takes 1.5 s alone took 5.2 s on a loaded machine,
          // past vitest's 5 s default. The timeout catches a hang, not a slow machine.
          testTimeout: 15_000,
          include: ["web/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["web/test/setup.ts"],
        },
      },
      {
        test: {
          name: "integration",
          include: ["{server,billing-sandbox}/**/*.int.test.ts"],
          // On PostgreSQL, the migrated database each test app's own is copied from.
          globalSetup: ["server/test/postgres-template.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: true,
          // Three files at a time on a two-core machine: the files wait on servers, timers and the database as much
          // as they compute (one at a time left a third of the CPU idle). INT_WORKERS sets another number.
          maxWorkers: Number(process.env.INT_WORKERS ?? 3),
          // The files of a worker share its loaded modules: each file builds its own app, database and servers, so
          // only the import is shared. Loading the server anew for every file was two thirds of the run's CPU
          // (10 files: 101 s of CPU isolated, 39 s shared).
          isolate: false,
        },
      },
      {
        // Faults a deployment survives (a database restart, Redis or SMTP gone, a killed process): each file
        // starts, stops and kills real servers of its own, one file at a time, on PostgreSQL and Redis.
        test: {
          name: "faults",
          include: ["server/**/*.fault.test.ts"],
          environment: "node",
          // Generous: each starts real servers, which takes a minute on a busy machine; their own bounds catch hangs.
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
