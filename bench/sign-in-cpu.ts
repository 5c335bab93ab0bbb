// Where a sign-in's CPU goes: the product's CPU time per successful sign-in against the CPU time of the password check
// alone. better-auth checks passwords with node:crypto's scrypt on the libuv thread pool, whose threads /proc counts in
// the process's time, so the two numbers cover the same work.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import { readProfile, selfTimes, type SelfTime } from "./cpu-profile";
import type { BenchDatabase } from "./database";
import { callApi, startProduct } from "./product";
import { readCpuMs } from "./processes";

/** One successful sign-in through the API; throws otherwise. */
const signInOnce = (baseUrl: string, email: string, password: string) =>
  callApi(baseUrl, "POST", "/api/auth/sign-in/email", { body: { email, password } });

export type SignInCpu = { signIns: number; productMsPerSignIn: number; verifyMsPerSignIn: number; share: number };

/**
 * (a) The product's user+system CPU time over `count` sequential sign-ins, each from a client address of its own so
 * the sign-in rate limit never refuses one; (b) the CPU time of better-auth's own `verifyPassword` on the same
 * password, run `count` times in this process (scrypt with the parameters better-auth uses). Share = (b) / (a).
 */
export async function measureSignInCpu(options: {
  baseUrl: string;
  pid: number;
  email: string;
  password: string;
  count: number;
}): Promise<SignInCpu> {
  const { baseUrl, pid, email, password, count } = options;
  const signIn = () => signInOnce(baseUrl, email, password);
  // One first, so what a first sign-in initialises is not counted.
  await signIn();
  const before = readCpuMs(pid);
  for (let index = 0; index < count; index += 1) await signIn();
  const productMsPerSignIn = (readCpuMs(pid) - before) / count;

  const hash = await hashPassword(password);
  await verifyPassword({ hash, password });
  const started = process.cpuUsage();
  for (let index = 0; index < count; index += 1) {
    if (!(await verifyPassword({ hash, password }))) throw new Error("verifyPassword refused the password it hashed");
  }
  const used = process.cpuUsage(started);
  const verifyMsPerSignIn = (used.user + used.system) / 1000 / count;
  return { signIns: count, productMsPerSignIn, verifyMsPerSignIn, share: verifyMsPerSignIn / productMsPerSignIn };
}

/** The functions the main thread spends its time in during a sign-in, outside the password hash. */
export type SignInProfile = { signIns: number; mainThreadMsPerSignIn: number; top: SelfTime[] };

/**
 * A V8 CPU profile of `count` sign-ins, in a second product process started with --cpu-prof once the measured one
 * has stopped (the profiler's overhead stays out of every other number). Only the sign-ins' window is read, and
 * the password check's own frames are left out: scrypt itself runs on the thread pool, which the profile does not see.
 */
export async function profileSignIns(
  database: BenchDatabase,
  credentials: { email: string; password: string },
  count: number,
): Promise<SignInProfile | undefined> {
  const dir = path.join(database.dataDir, "cpu-profile");
  mkdirSync(dir, { recursive: true });
  const product = await startProduct(database, {
    nodeOptions: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
    label: "product-cpu-profile",
  });
  const now = () => Number(process.hrtime.bigint() / 1000n);
  let from = 0;
  let to = 0;
  try {
    await signInOnce(product.baseUrl, credentials.email, credentials.password);
    from = now();
    for (let index = 0; index < count; index += 1)
      await signInOnce(product.baseUrl, credentials.email, credentials.password);
    to = now();
  } finally {
    await product.stop();
  }
  const profile = readProfile(dir);
  if (!profile) return undefined;
  // better-auth's password wrapper, @better-auth/utils' scrypt call and node's scrypt binding.
  const hashing = /\/crypto\/password\.mjs$|\/password\.node\.mjs$|^node:internal\/crypto\/scrypt$/;
  const times = selfTimes(profile, from, to, (frame) => hashing.test(frame.url));
  const total = times.reduce((sum, time) => sum + time.ms, 0);
  return {
    signIns: count,
    mainThreadMsPerSignIn: total / count,
    top: times.slice(0, 5).map((time) => ({ ...time, ms: time.ms / count })),
  };
}
