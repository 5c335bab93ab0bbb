import { z } from "zod";
import { idSchema } from "./account.schemas";
import { API_KEY_SCOPES } from "./permissions";

/**
 * Organization API keys' shared contracts (docs/api-keys.md): the creation form's body, and what
 * `/api/organizations/{id}/api-keys` answers.
 */

export const API_KEY_NAME_MAX_LENGTH = 100;
export const API_KEY_MAX_EXPIRY_DAYS = 3650;

export const createApiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Enter a name")
    .max(API_KEY_NAME_MAX_LENGTH, `Use at most ${API_KEY_NAME_MAX_LENGTH} characters`),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { message: `Choose scopes among ${API_KEY_SCOPES.join(", ")}` }))
    .min(1, "Choose at least one scope")
    .max(API_KEY_SCOPES.length)
    .transform((scopes) => [...new Set(scopes)]),
  expiresInDays: z
    .number()
    .int("Enter a whole number of days")
    .min(1, "Enter at least 1 day")
    .max(API_KEY_MAX_EXPIRY_DAYS, `Enter at most ${API_KEY_MAX_EXPIRY_DAYS} days`)
    .optional(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

export const apiKeyParamsSchema = z.object({ organizationId: idSchema, keyId: idSchema });

/** A key as lists show it: never its secret, only its first characters. */
export type ApiKeySummary = {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
};

/** The answer to a creation: the only time the secret (`key`) is shown. */
export type CreatedApiKey = Omit<ApiKeySummary, "lastUsedAt"> & { key: string };
