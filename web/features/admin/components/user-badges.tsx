import type { AdminUserListItem } from "../../../../common/admin.schemas";
import { Badge } from "../../../components/ui/badge";
import { formatDateTime } from "../../../lib/format";

type BadgeUser = Pick<AdminUserListItem, "isPlatformAdmin" | "banned" | "emailVerified">;

/** Platform admin or user, as the server decides it (the admin role or a configured administrator id). */
export function PlatformRoleBadge({ user }: { user: Pick<AdminUserListItem, "isPlatformAdmin"> }) {
  return user.isPlatformAdmin ? <Badge tone="brand">Admin</Badge> : <Badge>User</Badge>;
}

/** Banned or active, and whether the e-mail address is still unverified. */
export function UserStatusBadges({ user }: { user: BadgeUser }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {user.banned ? <Badge tone="danger">Banned</Badge> : <Badge tone="success">Active</Badge>}
      {user.emailVerified ? null : <Badge tone="warning">Unverified</Badge>}
    </span>
  );
}

/** "until 3 Mar 2026, 10:00" in the reader's own time, or "permanently". */
export function banEndText(banExpires: string | null): string {
  return banExpires ? `until ${formatDateTime(banExpires)}` : "permanently";
}
