import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A new endpoint secret: `whsec_` and 24 random bytes in base64, the Standard Webhooks form. */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with each secret that signs,
 * space-separated (the current one, and the previous one during the day after a rotation).
 */
export function signatureHeader(secrets: string[], id: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" ");
}
