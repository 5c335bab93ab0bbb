import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { PasswordHashing } from "../auth/password-hashing";

const PREFIX = "test-sha256";

const digest = (salt: string, password: string) => createHash("sha256").update(`${salt}:${password}`).digest();

/**
 * The integration tests' password hashing: a salted SHA-256, microseconds where better-auth's scrypt takes about
 * 90 ms of a core, which was most of the suite's time. Salted, so two users with one password still differ. What the
 * product's own hashing does is tested in server/auth/password-hashing.test.ts and in every server process the
 * tests start (they run the real one).
 */
export const cheapPasswordHashing: PasswordHashing = {
  async hash(password) {
    const salt = randomBytes(8).toString("hex");
    return `${PREFIX}:${salt}:${digest(salt, password).toString("hex")}`;
  },
  async verify({ hash, password }) {
    const [prefix, salt, hex] = hash.split(":");
    if (prefix !== PREFIX || salt === undefined || hex === undefined) return false;
    const expected = Buffer.from(hex, "hex");
    const actual = digest(salt, password);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
};
