import { z } from "zod";
import { EMAIL_MAX_LENGTH, ID_MAX_LENGTH, idSchema, imageUrlSchema } from "./account.schemas";
import { DISPLAY_NAME_MAX_LENGTH, displayNameSchemaWith } from "./display-name";
import { ORGANIZATION_ROLES } from "./permissions";

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MIN_LENGTH = 2;
export const SLUG_MAX_LENGTH = 48;
export const ORGANIZATION_NAME_MAX_LENGTH = DISPLAY_NAME_MAX_LENGTH;
export const TEAM_NAME_MAX_LENGTH = DISPLAY_NAME_MAX_LENGTH;
/** Organization metadata limits: a map (or its JSON string) of at most 16 KB and 10 levels. */
export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_DEPTH = 10;

/** An organization's name: the display-name rule (common/display-name.ts). */
export const organizationNameSchema = displayNameSchemaWith("Enter a name");
export const slugSchema = z
  .string()
  .trim()
  .min(SLUG_MIN_LENGTH, `Use at least ${SLUG_MIN_LENGTH} characters`)
  .max(SLUG_MAX_LENGTH, `Use at most ${SLUG_MAX_LENGTH} characters`)
  .regex(SLUG_PATTERN, "Use lower-case letters, digits and single dashes");
/** `GET /api/organizations/slug-availability?slug=…`: whether an organization may take a slug. */
export const slugAvailabilityQuerySchema = z.object({ slug: slugSchema });
export type SlugAvailability = { available: boolean };
/** A logo URL, or "" for none. */
export const logoUrlSchema = imageUrlSchema;
const logoSchema = logoUrlSchema.optional();

export const createOrganizationSchema = z.object({ name: organizationNameSchema, slug: slugSchema, logo: logoSchema });
export type CreateOrganizationInput = z.infer<typeof createOrganizationSchema>;

export const updateOrganizationSchema = z.object({
  name: organizationNameSchema,
  slug: slugSchema,
  logo: logoSchema,
  metadata: z.string().refine((value) => {
    if (!value.trim()) return true;
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  }, 'Enter a JSON object, e.g. {"plan": "pro"}'),
});

/**
 * Organization metadata as the API takes it: a map or its JSON string. Only the type is checked here; its
 * size, depth and keys are checked where it is parsed (the organizations module).
 */
export const organizationMetadataSchema = z.union([z.string(), z.record(z.string(), z.unknown())], {
  error: "Send a JSON object or its string",
});

const roleList = ORGANIZATION_ROLES.join(", ");
export const organizationRoleSchema = z.enum(ORGANIZATION_ROLES, { error: `Use one of: ${roleList}` });
const isOrganizationRole = (role: string) => organizationRoleSchema.safeParse(role.trim()).success;
/** One role or several (a list, or better-auth's comma-separated string), each one of the organization's roles. */
export const organizationRolesSchema = z.union(
  [
    z
      .string()
      .max(ID_MAX_LENGTH, `Use at most ${ID_MAX_LENGTH} characters`)
      .refine((value) => value.split(",").every(isOrganizationRole), `Use one or more of: ${roleList}`),
    z
      .array(organizationRoleSchema)
      .min(1, `Use one or more of: ${roleList}`)
      .max(ORGANIZATION_ROLES.length, `Use each role at most once: ${roleList}`),
  ],
  { error: `Use one or more of: ${roleList}` },
);

export const invitationEmailSchema = z
  .string()
  .trim()
  .min(1, "Enter an e-mail address")
  .max(EMAIL_MAX_LENGTH, `Use at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email("Enter a valid e-mail address"));

export const inviteMemberSchema = z.object({
  email: invitationEmailSchema,
  role: organizationRoleSchema,
  teamId: idSchema.optional(),
});

/** A team's name: the display-name rule (common/display-name.ts). */
export const teamNameFieldSchema = displayNameSchemaWith("Enter a team name");
export const teamNameSchema = z.object({ name: teamNameFieldSchema });

/** The permissions a has-permission call asks about: resource → actions, both short names. */
const permissionName = z.string().max(ID_MAX_LENGTH, `Use at most ${ID_MAX_LENGTH} characters`);
export const permissionsSchema = z.record(
  permissionName,
  z.array(permissionName).max(32, "Ask about at most 32 actions per resource"),
);
/** A has-permission body: exactly one of `permission` and `permissions` (better-auth takes either name). */
export const permissionCheckSchema = (shape: z.ZodRawShape) =>
  z
    .strictObject({ ...shape, permission: permissionsSchema.optional(), permissions: permissionsSchema.optional() })
    .refine(
      (body: { permission?: unknown; permissions?: unknown }) =>
        (body.permission === undefined) !== (body.permissions === undefined),
      "Send either permission or permissions: a map of resource to actions",
    );

// Requests of the app's own organization endpoints, checked with the same schemas by the server and the web app.

export const listMembersQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListMembersQuery = z.infer<typeof listMembersQuerySchema>;

export const organizationParamsSchema = z.object({ organizationId: idSchema });
export const invitationParamsSchema = z.object({ invitationId: idSchema });
export const memberParamsSchema = organizationParamsSchema.extend({ memberId: idSchema });
export const organizationInvitationParamsSchema = organizationParamsSchema.extend({ invitationId: idSchema });
export const teamParamsSchema = organizationParamsSchema.extend({ teamId: idSchema });
export const teamMemberParamsSchema = teamParamsSchema.extend({ userId: idSchema });

// Response shapes of the app's own organization endpoints, read by the web app.

export type MemberListItem = {
  id: string;
  userId: string;
  role: string;
  createdAt: string;
  user: { id: string; name: string; email: string; image: string | null; username: string | null };
  teams: Array<{ id: string; name: string }>;
  /** Whether the organization's directory provisioned them (SCIM, docs/scim.md): the directory manages them. */
  provisioned: boolean;
};

/** `ownerCount` counts the organization's owners whatever the search (the last owner can neither leave nor be demoted). */
export type MemberList = {
  members: MemberListItem[];
  total: number;
  ownerCount: number;
  limit: number;
  offset: number;
};

/** `organization_deleted`: the organization that sent it was deleted since (its invitations with it). */
export type InvitationState = "pending" | "accepted" | "rejected" | "canceled" | "expired" | "organization_deleted";

/**
 * What an invitation link tells anyone who holds it (the link is the credential): its state, the organization's
 * name and the inviter's. Nothing else: no e-mail, role or ids.
 */
export type InvitationPreview = {
  state: InvitationState;
  organizationName: string;
  /** Null when the organization itself invited (an API key sent it). */
  inviterName: string | null;
};

// What the organization's writes under `/api/organizations/{id}/…` answer (docs/api-keys.md), for a session and an API
// key alike.

/** A membership (`PATCH /members/{memberId}`). */
export type OrganizationMember = {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  createdAt: string;
};

/** An invitation (`GET` and `POST /invitations`): `teamId` lists its teams, comma-separated; no inviter for a key's. */
export type OrganizationInvitation = {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  teamId: string | null;
  status: "pending" | "accepted" | "rejected" | "canceled";
  expiresAt: string;
  createdAt: string;
  inviterId: string | null;
};

/** A team (`POST /teams`, `PATCH /teams/{teamId}`). */
export type OrganizationTeam = {
  id: string;
  organizationId: string;
  name: string;
  createdAt: string;
  updatedAt: string | null;
};

/** A team membership (`POST /teams/{teamId}/members`). */
export type TeamMembership = { id: string; teamId: string; userId: string; createdAt: string };

export type TeamWithMembers = {
  id: string;
  name: string;
  createdAt: string;
  members: Array<{ userId: string; name: string; email: string; image: string | null }>;
};

/** An organization as a list names it: its id, name and slug (the address of its pages). */
export type OrganizationSummary = { id: string; name: string; slug: string };

/**
 * What deleting the signed-in account would do to its organizations (`GET /api/account/deletion-preview`):
 * those where it is the only member go with it (their subscriptions end); those where it is the only owner of
 * other members refuse the deletion (`SOLE_OWNER`) until ownership is transferred or the organization deleted.
 */
export type AccountDeletionPreview = { deletedWithAccount: OrganizationSummary[]; soleOwnerOf: OrganizationSummary[] };

/** `PATCH /api/organizations/{id}/security`: the organization's security policy, as the Security settings form sends it. */
export const organizationSecuritySchema = z
  .strictObject({
    requireTwoFactor: z.boolean({ error: "Say whether members must have a second factor" }).optional(),
    /** Password sign-in on the organization's verified SSO domains is refused (docs/sso.md). */
    requireSso: z.boolean({ error: "Say whether members must sign in with SSO" }).optional(),
    /** People with a verified address on the organization's verified SSO domains may join without an invitation. */
    allowDomainJoin: z.boolean({ error: "Say whether people on your verified domains may join" }).optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    error: "Send requireTwoFactor, requireSso or allowDomainJoin",
  });
export type OrganizationSecurityInput = z.infer<typeof organizationSecuritySchema>;

/**
 * An organization's security policy (`GET` and `PATCH /api/organizations/{id}/security`), with whether the caller
 * has a second factor (a TOTP factor or a passkey): without one they cannot turn the requirement on; and whether the
 * organization has a verified SSO provider, without which SSO cannot be required.
 */
export type OrganizationSecurity = {
  requireTwoFactor: boolean;
  callerHasSecondFactor: boolean;
  /** Members on the organization's verified SSO domains sign in through SSO (owners keep a break-glass path). */
  requireSso: boolean;
  /** People with a verified address on the verified domains join without an invitation (docs/sso.md). */
  allowDomainJoin: boolean;
  /** Whether a provider's domain is verified: without one, SSO cannot be required nor domain join allowed. */
  hasVerifiedSsoProvider: boolean;
};
