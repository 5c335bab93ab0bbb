import { createContext, useContext } from "react";
import { rolesAllow, type OrganizationPermissions } from "../../../../common/permissions";
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
    <OrganizationContext.Provider value={{ organization, role, userId, can: (permissions) => rolesAllow(role, permissions) }}>
      {children}
    </OrganizationContext.Provider>
  );
}

export function useOrganizationContext(): OrganizationContextValue {
  const value = useContext(OrganizationContext);
  if (!value) throw new Error("useOrganizationContext needs an OrganizationProvider");
  return value;
}

export function RoleBadge({ role }: { role: string }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {role.split(",").map((name) => (
        <span key={name} className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium capitalize text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {name.trim()}
        </span>
      ))}
    </span>
  );
}
