import { randomBytes } from "node:crypto";
import { defaultKeyHasher } from "@better-auth/api-key";

/** What every key starts with, so that people, logs and secret scanners recognise one. */
export const API_KEY_PREFIX = "atr_";
/** The key characters lists show, after the prefix: enough to tell keys apart, far too few to guess the rest. */
const SHOWN_CHARACTERS = 6;

/** The stored form of a key: its SHA-256, base64url (the api-key plugin's hasher, docs/decisions/0024). */
export function hashApiKey(key: string): Promise<string> {
  return defaultKeyHasher(key);
}

/** A new key: the prefix and 43 random base64url characters (256 bits), what lists show of it, and its hash. */
export async function generateApiKey(): Promise<{ key: string; prefix: string; keyHash: string }> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + SHOWN_CHARACTERS), keyHash: await hashApiKey(key) };
}
