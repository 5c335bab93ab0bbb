import { createHash, randomBytes } from "node:crypto";

/** What every key starts with, so that people, logs and secret scanners recognise one. */
export const API_KEY_PREFIX = "atr_";
/** The key characters lists show, after the prefix: enough to tell keys apart, far too few to guess the rest. */
const SHOWN_CHARACTERS = 6;

/**
 * The stored form of a key: its SHA-256, base64url without padding, the api-key plugin's `defaultKeyHasher` format
 * (docs/decisions/0024; api-keys.secret.test.ts holds them equal). Synchronous: a replayed answer is matched to its
 * key without a promise (docs/decisions/0027).
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}

/** A new key: the prefix and 43 random base64url characters (256 bits), what lists show of it, and its hash. */
export function generateApiKey(): { key: string; prefix: string; keyHash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + SHOWN_CHARACTERS), keyHash: hashApiKey(key) };
}
