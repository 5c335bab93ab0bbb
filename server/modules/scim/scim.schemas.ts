import { z } from "zod";

/** SCIM's media type (RFC 7644 section 3.1): every answer of the SCIM endpoints carries it. */
export const SCIM_MEDIA_TYPE = "application/scim+json";

export const SCHEMAS = {
  user: "urn:ietf:params:scim:schemas:core:2.0:User",
  group: "urn:ietf:params:scim:schemas:core:2.0:Group",
  enterpriseUser: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User",
  listResponse: "urn:ietf:params:scim:api:messages:2.0:ListResponse",
  patchOp: "urn:ietf:params:scim:api:messages:2.0:PatchOp",
  error: "urn:ietf:params:scim:api:messages:2.0:Error",
  serviceProviderConfig: "urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig",
  resourceType: "urn:ietf:params:scim:schemas:core:2.0:ResourceType",
  schema: "urn:ietf:params:scim:schemas:core:2.0:Schema",
} as const;

/** The most resources one list answers (advertised as `filter.maxResults`). */
export const MAX_RESULTS = 100;

/** What the app keeps of a SCIM User: the state PUT replaces and PATCH changes. */
export type ScimUserState = {
  userName: string;
  externalId: string | null;
  email: string;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  active: boolean;
};

/** What the app keeps of a SCIM Group: its team's name, its externalId and the SCIM User ids of its members. */
export type ScimGroupState = { displayName: string; externalId: string | null; members: string[] };

const text = z.string().trim().max(256, "Use at most 256 characters");
const booleanLike = z.union([z.boolean(), z.string().regex(/^(true|false)$/i, "Use true or false")]);
const addressSchema = z.string().trim().toLowerCase().pipe(z.email("Enter an e-mail address").max(254));

export const patchOperationSchema = z.object({
  op: z.string().max(20),
  path: z.string().max(512).optional(),
  value: z.unknown().optional(),
});
export type PatchOperation = z.infer<typeof patchOperationSchema>;

export const patchRequestSchema = z.object({
  schemas: z.array(z.string()).optional(),
  Operations: z.array(patchOperationSchema).min(1, "Send at least one operation").max(1_000),
});

const emailEntrySchema = z.object({
  value: z.unknown(),
  primary: booleanLike.optional(),
  type: z.string().max(64).optional(),
});

/** The primary address of an `emails` value (the first when none is primary), lowercased; undefined when none is valid. */
export function emailOf(value: unknown): string | undefined {
  const list = z.array(emailEntrySchema).max(20).safeParse(value);
  if (!list.success) return undefined;
  const isPrimary = (entry: { primary?: boolean | string }) => String(entry.primary).toLowerCase() === "true";
  const chosen = list.data.find(isPrimary) ?? list.data[0];
  const address = addressSchema.safeParse(chosen?.value);
  return address.success ? address.data : undefined;
}

/** A User as POST creates it and PUT replaces it. The e-mail is the primary one, else the userName if it is one. */
export const userResourceSchema = z.object({
  schemas: z.array(z.string()).optional(),
  userName: text.min(1, "userName is required"),
  externalId: text.nullish(),
  name: z.object({ givenName: text.nullish(), familyName: text.nullish(), formatted: z.string().nullish() }).nullish(),
  displayName: text.nullish(),
  emails: z.array(emailEntrySchema).max(20).optional(),
  active: booleanLike.optional(),
});
export type UserResourceInput = z.infer<typeof userResourceSchema>;

/** A Group as POST creates it. */
export const groupResourceSchema = z.object({
  schemas: z.array(z.string()).optional(),
  displayName: text.min(1, "displayName is required"),
  externalId: text.nullish(),
  members: z
    .array(z.object({ value: z.string().max(256), display: z.string().optional() }))
    .max(1_000)
    .optional(),
});
export type GroupResourceInput = z.infer<typeof groupResourceSchema>;

/** The last `startIndex` a list accepts: past it, pages are empty anyway, and the offset stays a safe integer. */
const MAX_START_INDEX = 2 ** 31;

/** `startIndex` (1-based) and `count` of a list request (RFC 7644 section 3.4.2.4); bad values fall back. */
export const listQuerySchema = z.object({
  filter: z.string().optional(),
  startIndex: z.coerce
    .number()
    .int()
    .catch(1)
    .transform((value) => Math.min(value, MAX_START_INDEX))
    .optional(),
  count: z.coerce.number().int().catch(MAX_RESULTS).optional(),
  excludedAttributes: z.string().optional(),
  attributes: z.string().optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;
