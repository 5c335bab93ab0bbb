import { randomBytes, randomUUID } from "node:crypto";
import type { Clock } from "./clock";
import type { Store } from "./store";
import type { WebhookDispatcher } from "./webhooks";

/** The merchant account every object belongs to: the sandbox plays exactly one provider organization. */
export type Organization = { id: string; name: string; slug: string; created_at: string };

export type SandboxContext = {
  store: Store;
  clock: Clock;
  webhooks: WebhookDispatcher;
  organization: Organization;
  /** Absolute URL the sandbox is reachable at (no trailing slash); checkout and portal URLs start with it. */
  publicUrl: string;
  /** When set, organization API calls must carry exactly this bearer token. */
  accessToken: string | undefined;
};

export const newId = () => randomUUID();

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Provider-style opaque tokens: a prefix and base62 characters (`polar_c_…`, `polar_cst_…`, `whsec_…`). */
export function newToken(prefix: string, length = 43): string {
  const bytes = randomBytes(length);
  return prefix + Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

export function loadOrganization(store: Store, now: string): Organization {
  const stored = store.getSetting("organization");
  if (stored) return JSON.parse(stored) as Organization;
  const organization = { id: newId(), name: "Sandbox Merchant", slug: "sandbox-merchant", created_at: now };
  store.setSetting("organization", JSON.stringify(organization));
  return organization;
}
