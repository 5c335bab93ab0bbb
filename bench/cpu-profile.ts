// Reading a V8 CPU profile (node --cpu-prof): self time per function over a window of the run.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./processes";

type CallFrame = { functionName: string; url: string; lineNumber: number };
type CpuProfile = {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};
export type SelfTime = { name: string; ms: number };

/** The one profile node writes into `dir` when the process exits, or undefined when it wrote none (killed). */
export function readProfile(dir: string): CpuProfile | undefined {
  const file = readdirSync(dir, { withFileTypes: true }).find(
    (entry) => entry.isFile() && entry.name.endsWith(".cpuprofile"),
  );
  return file && (JSON.parse(readFileSync(path.join(dir, file.name), "utf8")) as CpuProfile);
}

/** Where a function is, short: from node_modules/ for a package (wherever it really lives), relative to the repository, or node's own module. */
function location(frame: CallFrame): string {
  if (!frame.url) return "";
  const file = frame.url.startsWith("file://") ? new URL(frame.url).pathname : frame.url;
  const packageAt = file.lastIndexOf("/node_modules/");
  const short = packageAt >= 0 ? file.slice(packageAt + 1) : file.startsWith("/") ? path.relative(root, file) : file;
  return ` ${short}:${frame.lineNumber + 1}`;
}

/**
 * Self time per function, largest first, over the samples taken between `from` and `to` (µs on the monotonic clock,
 * which V8's profile and `process.hrtime` share), leaving out idle time and the frames `exclude` names.
 */
export function selfTimes(
  profile: CpuProfile,
  from: number,
  to: number,
  exclude: (frame: CallFrame) => boolean,
): SelfTime[] {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const totals = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const frame = frames.get(id);
    if (
      at < from ||
      at > to ||
      !frame ||
      frame.functionName === "(idle)" ||
      frame.functionName === "(root)" ||
      exclude(frame)
    )
      return;
    // A sample stands for the time until the next one.
    const spent = profile.timeDeltas[index + 1] ?? 0;
    const name = `${frame.functionName || "(anonymous)"}${location(frame)}`;
    totals.set(name, (totals.get(name) ?? 0) + spent);
  });
  return [...totals].map(([name, microseconds]) => ({ name, ms: microseconds / 1000 })).sort((a, b) => b.ms - a.ms);
}
