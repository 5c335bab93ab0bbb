import { availableParallelism } from "node:os";
import { hashPassword, verifyPassword } from "better-auth/crypto";

/** How passwords are hashed and checked: better-auth's `emailAndPassword.password`. */
export type PasswordHashing = {
  hash(password: string): Promise<string>;
  verify(data: { hash: string; password: string }): Promise<boolean>;
};

/**
 * better-auth's own password hashing (scrypt with N = 16384 and r = 16, on libuv's thread pool: 32 MB of memory and
 * about 90 ms of a core per hash), at most one hash per core at a time. More at once cannot finish sooner on those
 * cores; they would hold 32 MB each and take the whole thread pool from file reads. A burst of sign-ins waits its
 * turn instead. Hashes stay better-auth's, so existing passwords verify as before.
 */
export function boundedPasswordHashing(concurrency = availableParallelism()): PasswordHashing {
  const limit = createLimiter(concurrency);
  return {
    hash: (password: string) => limit(() => hashPassword(password)),
    verify: (data: { hash: string; password: string }) => limit(() => verifyPassword(data)),
  };
}

/** Runs at most `concurrency` of the functions given to it at a time, the others in the order they came. */
export function createLimiter(concurrency: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
