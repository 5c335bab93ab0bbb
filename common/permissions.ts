import { createAccessControl, type AccessControl } from "better-auth/plugins/access";

/**
 * Roles are data: the organization and platform permission matrices of the spec (section 6), plus the
 * billing resource. Server and web check against these same objects.
 */
export const organizationStatements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  billing: ["manage"],
  auditLog: ["list"],
} as const;

export const organizationAccessControl: AccessControl<typeof organizationStatements> =
  createAccessControl(organizationStatements);

export const organizationRoles = {
  owner: organizationAccessControl.newRole({
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    billing: ["manage"],
    auditLog: ["list"],
  }),
  admin: organizationAccessControl.newRole({
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    billing: ["manage"],
    auditLog: ["list"],
  }),
  member: organizationAccessControl.newRole({}),
};

export type OrganizationRole = keyof typeof organizationRoles;
export const ORGANIZATION_ROLES = Object.keys(organizationRoles) as OrganizationRole[];

/**
 * The spec's platform matrix, plus the console's own: organizations (and giving one an owner), the audit log,
 * billing.
 */
export const platformStatements = {
  user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password"],
  session: ["list", "revoke", "delete"],
  organization: ["list", "update"],
  auditLog: ["list"],
  billing: ["manage"],
} as const;

export const platformAccessControl: AccessControl<typeof platformStatements> = createAccessControl(platformStatements);

export const platformRoles = {
  admin: platformAccessControl.newRole({
    user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password"],
    session: ["list", "revoke", "delete"],
    organization: ["list", "update"],
    auditLog: ["list"],
    billing: ["manage"],
  }),
  user: platformAccessControl.newRole({ user: [], session: [] }),
};

export type PlatformRole = keyof typeof platformRoles;

export type OrganizationPermissions = {
  [K in keyof typeof organizationStatements]?: Array<(typeof organizationStatements)[K][number]>;
};

/**
 * The one definition of a platform admin (spec section 6): a configured administrator id, or a user whose
 * comma-separated roles include `admin`. Every platform-admin decision the app makes itself goes through it.
 */
export function isPlatformAdmin(user: { id: string; role?: string | null }, adminUserIds: readonly string[]): boolean {
  return adminUserIds.includes(user.id) || (user.role ?? "").split(",").some((role) => role.trim() === "admin");
}

export type PlatformPermissions = {
  [K in keyof typeof platformStatements]?: Array<(typeof platformStatements)[K][number]>;
};

/**
 * The spec's platform check: passes for a configured administrator id, or when any of the user's comma-separated
 * roles grants every requested action; with no requested action it fails.
 */
export function platformAllows(
  user: { id: string; role?: string | null },
  permissions: PlatformPermissions,
  adminUserIds: readonly string[],
): boolean {
  if (adminUserIds.includes(user.id)) return true;
  if (Object.keys(permissions).length === 0) return false;
  return (user.role || "user")
    .split(",")
    .map((name) => name.trim())
    .some((name) => platformRoles[name as PlatformRole]?.authorize(permissions as never).success === true);
}

/**
 * The spec's rule: passes when any of the comma-separated roles grants every requested action; with no
 * requested action it fails. The web app uses it to offer only what a role may do; the server decides.
 */
export function rolesAllow(role: string | null | undefined, permissions: OrganizationPermissions): boolean {
  if (!role || Object.keys(permissions).length === 0) return false;
  return role
    .split(",")
    .map((name) => name.trim())
    .some((name) => organizationRoles[name as OrganizationRole]?.authorize(permissions as never).success === true);
}

/**
 * What an organization API key may be granted (docs/api-keys.md): each scope stands for a part of the organization
 * permission matrix above, and only someone whose role holds that part can grant it. Which routes under
 * `/api/organizations/{id}/…` each scope opens is decided in one table (server/modules/organizations/
 * organizations.api-key-access.ts); every other route refuses keys.
 */
export const apiKeyScopes = {
  "members:read": { grants: {}, description: "List the organization's members and their teams" },
  "members:write": {
    grants: { member: ["update", "delete"] },
    description: "Change members' roles and remove members (never an owner)",
  },
  "invitations:write": {
    grants: { invitation: ["create", "cancel"] },
    description: "List, send and cancel invitations (the mail names the organization)",
  },
  "teams:read": { grants: {}, description: "List the organization's teams and their members" },
  // Adding and removing a team's members asks of a person what changing and removing members does.
  "teams:write": {
    grants: { team: ["create", "update", "delete"], member: ["update", "delete"] },
    description: "Create, rename and delete teams, and add and remove their members",
  },
  "billing:read": { grants: {}, description: "Read the plan, subscription and checkout progress" },
  "usage:write": { grants: { billing: ["manage"] }, description: "Report metered usage" },
  "audit:read": { grants: { auditLog: ["list"] }, description: "Read and export the organization's audit log" },
} as const satisfies Record<string, { grants: OrganizationPermissions; description: string }>;

export type ApiKeyScope = keyof typeof apiKeyScopes;
export const API_KEY_SCOPES = Object.keys(apiKeyScopes) as [ApiKeyScope, ...ApiKeyScope[]];
