import { z } from "zod";
import { idSchema } from "./account.schemas";

/**
 * Directory sync's shared contracts (docs/scim.md): the body of `POST /api/auth/scim/generate-token` (the settings
 * page's form too) and what the organization's token list answers.
 */

/** Where a directory sends its SCIM requests, after the app's base URL. */
export const SCIM_BASE_PATH = "/api/auth/scim/v2";

export const SCIM_TOKEN_NAME_MAX_LENGTH = 60;

/**
 * `providerId` names the directory connection the token is for ("okta", "entra-id"): the audit log shows it as
 * the actor of every change the directory makes.
 */
export const scimTokenNameSchema = z
  .string()
  .trim()
  .min(1, "Enter a name for the connection")
  .max(SCIM_TOKEN_NAME_MAX_LENGTH, `Use at most ${SCIM_TOKEN_NAME_MAX_LENGTH} characters`);

export const generateScimTokenSchema = z.object({ providerId: scimTokenNameSchema, organizationId: idSchema });
export type GenerateScimTokenInput = z.infer<typeof generateScimTokenSchema>;

/** A token as the settings list it: never its secret. */
export type ScimTokenSummary = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** `GET /api/organizations/{id}/scim`: the SCIM base URL the directory is given, and the tokens. */
export type OrganizationScim = { baseUrl: string; tokens: ScimTokenSummary[] };

/** The answer that creates or rotates a token: the secret, shown this once. */
export type ScimTokenSecret = { scimToken: string; token: ScimTokenSummary };
