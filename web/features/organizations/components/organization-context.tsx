import { createContext, useContext } from "react";
import {
  ORGANIZATION_ROLES,
  rolesAllow,
  type OrganizationPermissions,
  type OrganizationRole,
} from "../../../../common/permissions";
import type { Organization } from "../api/organizations";

export type OrganizationContextValue = {
  organization: Organization;
  role: string;
  userId: string;
  /** What the caller's role allows: the UI offers only that; the server refuses the rest anyway. */
  can(permissions: OrganizationPermissions): boolean;
};

const OrganizationContext = createContext<OrganizationContextValue | null>(null);

export function OrganizationProvider({
  organization,
  role,
  userId,
  children,
}: {
  organization: Organization;
  role: string;
  userId: string;
  children: React.ReactNode;
}) {
  return (
    <OrganizationContext.Provider
      value={{ organization, role, userId, can: (permissions) => rolesAllow(role, permissions) }}
    >
      {children}
    </OrganizationContext.Provider>
  );
}

export function useOrganizationContext(): OrganizationContextValue {
  const value = useContext(OrganizationContext);
  if (!value) throw new Error("useOrganizationContext needs an OrganizationProvider");
  return value;
}

/** A role's name as people read it: the badges and every role choice use these same words. */
export const ROLE_LABELS: Record<OrganizationRole, string> = { owner: "Owner", admin: "Admin", member: "Member" };

/** The label of one role; a role this version does not know is shown as stored. */
export function roleLabel(role: string): string {
  const name = role.trim();
  return (ORGANIZATION_ROLES as string[]).includes(name) ? ROLE_LABELS[name as OrganizationRole] : name;
}

/** Whether a comma-separated role string holds the owner role. */
export function hasOwnerRole(role: string): boolean {
  return role.split(",").some((name) => name.trim() === "owner");
}

export function RoleBadge({ role }: { role: string }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {role.split(",").map((name) => (
        <span
          key={name}
          className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
        >
          {roleLabel(name)}
        </span>
      ))}
    </span>
  );
}
