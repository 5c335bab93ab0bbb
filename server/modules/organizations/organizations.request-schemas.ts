import { z } from "zod";
import { asSent, columnSchema, EMAIL_MAX_LENGTH, idSchema } from "../../../common/account.schemas";
import {
  invitationEmailSchema,
  logoUrlSchema,
  organizationMetadataSchema,
  organizationNameSchema,
  organizationRolesSchema,
  permissionCheckSchema,
  SLUG_PATTERN,
  slugSchema,
  teamNameFieldSchema,
} from "../../../common/organization.schemas";

// Display names bound the raw value themselves; the auth hook stores their normalised form.
const organizationName = organizationNameSchema;
const teamName = teamNameFieldSchema;
const invitationEmail = asSent(invitationEmailSchema, EMAIL_MAX_LENGTH);
/** A slug is stored as sent, so surrounding spaces are refused rather than trimmed away. */
const slug = z.string().regex(SLUG_PATTERN, "Use lower-case letters, digits and single dashes").pipe(slugSchema);
const LIST_MAX_LENGTH = 64;
const idOrIds = z.union([idSchema, z.array(idSchema).max(LIST_MAX_LENGTH, `Send at most ${LIST_MAX_LENGTH} ids`)], {
  error: "Send an id or a list of ids",
});

const inviteMemberBody = z.strictObject({
  email: invitationEmail,
  role: organizationRolesSchema,
  organizationId: idSchema.optional(),
  resend: z.boolean().optional(),
  teamId: idOrIds.optional(),
});
const updateMemberRoleBody = z.strictObject({
  role: organizationRolesSchema,
  memberId: idSchema,
  organizationId: idSchema.optional(),
});
const createTeamBody = z.strictObject({ name: teamName, organizationId: idSchema.optional() });
const teamMemberBody = z.strictObject({ teamId: idSchema, userId: idSchema, organizationId: idSchema.optional() });

/**
 * The body of every POST endpoint of better-auth's organization plugin, keyed by path. server/auth checks
 * every request against these (with the other endpoints' schemas) before any plugin's hook runs: objects
 * are strict, so a key better-auth would ignore is refused. Whether a value exists stays better-auth's to answer.
 */
export const ORGANIZATION_REQUEST_BODY_SCHEMAS: Record<string, z.ZodType> = {
  "/organization/create": z.strictObject({
    name: organizationName,
    slug,
    // Server-side calls (the seed) create on behalf of a user; better-auth ignores it on a signed-in request.
    userId: idSchema.optional(),
    logo: logoUrlSchema.nullable().optional(),
    metadata: organizationMetadataSchema.nullable().optional(),
    keepCurrentActiveOrganization: z.boolean().optional(),
  }),
  "/organization/update": z.strictObject({
    data: z.strictObject({
      name: organizationName.optional(),
      slug: slug.optional(),
      logo: logoUrlSchema.nullable().optional(),
      metadata: organizationMetadataSchema.nullable().optional(),
    }),
    organizationId: idSchema.optional(),
  }),
  "/organization/check-slug": z.strictObject({ slug }),
  "/organization/delete": z.strictObject({ organizationId: idSchema }),
  "/organization/set-active": z.strictObject({
    organizationId: idSchema.nullable().optional(),
    organizationSlug: slug.optional(),
  }),
  "/organization/has-permission": permissionCheckSchema({ organizationId: idSchema.optional() }),
  "/organization/invite-member": inviteMemberBody,
  "/organization/accept-invitation": z.strictObject({ invitationId: idSchema }),
  "/organization/reject-invitation": z.strictObject({ invitationId: idSchema }),
  "/organization/cancel-invitation": z.strictObject({ invitationId: idSchema }),
  // A member id or an e-mail address: the id bound covers the longest address too.
  "/organization/remove-member": z.strictObject({ memberIdOrEmail: idSchema, organizationId: idSchema.optional() }),
  "/organization/update-member-role": updateMemberRoleBody,
  "/organization/leave": z.strictObject({ organizationId: idSchema }),
  "/organization/create-team": createTeamBody,
  "/organization/update-team": z.strictObject({
    teamId: idSchema,
    data: z.strictObject({ name: teamName.optional(), organizationId: idSchema.optional() }),
  }),
  "/organization/remove-team": z.strictObject({ teamId: idSchema, organizationId: idSchema.optional() }),
  "/organization/set-active-team": z.strictObject({ teamId: idSchema.nullable().optional() }),
  "/organization/add-team-member": teamMemberBody,
  "/organization/remove-team-member": teamMemberBody,
};

/**
 * The bodies of the app's own organization writes (organizations.routes.ts, docs/api-keys.md): the fields of the
 * better-auth endpoint each one runs, checked by the same schemas, with the ids in the path instead.
 */
export const memberRoleBodySchema = updateMemberRoleBody.pick({ role: true });
export const invitationBodySchema = inviteMemberBody.pick({ email: true, role: true, teamId: true });
export const teamBodySchema = createTeamBody.pick({ name: true });
export const teamMemberBodySchema = teamMemberBody.pick({ userId: true });

const MEMBER_COLUMNS: [string, ...string[]] = ["id", "organizationId", "userId", "role", "createdAt"];

/** Query fields better-auth hands to its adapter as column names without checking them. */
export const ORGANIZATION_REQUEST_QUERY_SCHEMAS: Record<string, z.ZodType> = {
  "/organization/list-members": z.object({
    sortBy: columnSchema(MEMBER_COLUMNS),
    filterField: columnSchema(MEMBER_COLUMNS),
  }),
};
