import { defaultKeyHasher } from "@better-auth/api-key";
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey } from "./api-keys.secret";

describe("an API key's stored hash", () => {
  it("is the api-key plugin's hash of the key, so rows could move to its table", async () => {
    for (let index = 0; index < 20; index += 1) {
      const { key, keyHash } = generateApiKey();
      expect(keyHash).toBe(await defaultKeyHasher(key));
    }
    expect(hashApiKey("atr_")).toBe(await defaultKeyHasher("atr_"));
    expect(hashApiKey("atr_é✓")).toBe(await defaultKeyHasher("atr_é✓"));
  });
});
