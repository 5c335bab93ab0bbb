import { createAccessControl } from "better-auth/plugins/access";

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
} as const;

export const organizationAccessControl = createAccessControl(organizationStatements);

export const organizationRoles = {
  owner: organizationAccessControl.newRole({
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    billing: ["manage"],
  }),
  admin: organizationAccessControl.newRole({
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    billing: ["manage"],
  }),
  member: organizationAccessControl.newRole({}),
};

export type OrganizationRole = keyof typeof organizationRoles;
export const ORGANIZATION_ROLES = Object.keys(organizationRoles) as OrganizationRole[];

export const platformStatements = {
  user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password"],
  session: ["list", "revoke", "delete"],
} as const;

export const platformAccessControl = createAccessControl(platformStatements);

export const platformRoles = {
  admin: platformAccessControl.newRole({
    user: ["create", "list", "set-role", "ban", "impersonate", "delete", "set-password"],
    session: ["list", "revoke", "delete"],
  }),
  user: platformAccessControl.newRole({ user: [], session: [] }),
};

export type PlatformRole = keyof typeof platformRoles;
