import { useState } from "react";
import { ORGANIZATION_ROLES, type OrganizationRole } from "../../../../../common/permissions";
import { Alert } from "../../../../components/ui/alert";
import { Avatar } from "../../../../components/ui/avatar";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Pagination } from "../../../../components/ui/pagination";
import { SearchInput } from "../../../../components/ui/search-input";
import { MobileLabel, Table } from "../../../../components/ui/table";
import { Card, CardHeader } from "../../../../components/ui/card";
import { ConfirmDialog } from "../../../../components/ui/dialog";
import { EmptyState } from "../../../../components/ui/page";
import { LoadingBlock, Spinner } from "../../../../components/ui/spinner";
import { errorMessage } from "../../../../lib/api-error";
import { formatDateTime } from "../../../../lib/format";
import { useDebouncedValue } from "../../../../lib/use-debounced-value";
import { useMembers, useRemoveMember, useUpdateMemberRole, type MemberListItem } from "../../api/organizations";
import {
  hasOwnerRole,
  ROLE_LABELS,
  RoleBadge,
  roleLabel,
  useOrganizationContext,
} from "../../components/organization-context";
import type { PlanLimitSlot } from "../../components/plan-limit-slot";

const PAGE_SIZE = 20;

/** What each role may do, in the words the role-change confirmation uses. */
const ROLE_SUMMARIES: Record<OrganizationRole, string> = {
  owner: "every permission, including deleting the organization and changing or removing other owners",
  admin:
    "manages members, invitations, teams and billing and sees the audit log, but cannot delete the organization or change owners",
  member: "belongs to the organization and its teams, without managing anything",
};

/** "an Owner", "an Admin", "a Member". */
const withArticle = (role: OrganizationRole) => `${role === "member" ? "a" : "an"} ${ROLE_LABELS[role]}`;

const rolesLabel = (role: string) => role.split(",").map(roleLabel).join(", ");

type RoleChange = { member: MemberListItem; role: OrganizationRole; isSelf: boolean };

/** The confirmation of a role change: what the new role allows, and what is lost when it is a step down. */
function describeRoleChange({ member, role, isSelf }: RoleChange, organizationName: string): string {
  const who = isSelf ? "You" : member.user.name;
  const was = hasOwnerRole(member.role) ? "owner" : member.role.split(",").includes("admin") ? "admin" : "member";
  const parts = [`${who} will be ${withArticle(role)} of ${organizationName}: ${ROLE_SUMMARIES[role]}.`];
  if (role === "owner" && !isSelf) parts.push("They will be able to change your role and remove you too.");
  const isStepDown = ORGANIZATION_ROLES.indexOf(role) > ORGANIZATION_ROLES.indexOf(was);
  if (isStepDown && isSelf)
    parts.push(
      `You cannot undo this yourself: only ${was === "owner" ? "an owner" : "an owner or admin"} can give the role back.`,
    );
  else if (isStepDown && was === "owner") parts.push("Only an owner can make them an owner again.");
  return parts.join(" ");
}

export function MembersPage({ planLimit }: { planLimit?: PlanLimitSlot }) {
  const { organization, role: myRole, userId, can } = useOrganizationContext();
  const updateMemberRole = useUpdateMemberRole(organization.id);
  const removeMember = useRemoveMember(organization.id);
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const debouncedSearch = useDebouncedValue(search.trim());
  const members = useMembers(organization.id, debouncedSearch, offset, PAGE_SIZE);
  const [removing, setRemoving] = useState<MemberListItem | null>(null);
  const [roleChange, setRoleChange] = useState<RoleChange | null>(null);
  const changingId = updateMemberRole.isPending ? updateMemberRole.variables.member.id : null;
  const isOwner = hasOwnerRole(myRole);
  const ownerCount = members.data?.ownerCount ?? 0;
  const canUpdateMembers = can({ member: ["update"] });
  const canRemoveMembers = can({ member: ["delete"] });

  const total = members.data?.total ?? 0;
  const counted = `${total} member${total === 1 ? "" : "s"}`;
  // During a search the total counts its matches. The previous answer, shown while the next one loads, may have
  // counted another search's.
  const summary = members.isPlaceholderData
    ? "Updating…"
    : debouncedSearch
      ? `${counted} ${total === 1 ? "matches" : "match"} “${debouncedSearch}”.`
      : `${counted} in ${organization.name}.`;
  return (
    <Card>
      <CardHeader
        title="Members"
        description={
          <>
            {summary}
            {planLimit?.usage ? (
              <span className="mt-1 block font-medium text-zinc-700 dark:text-zinc-300">{planLimit.usage}</span>
            ) : null}
          </>
        }
      />
      <div className="mb-4 flex items-center gap-3">
        <SearchInput
          label="Search members"
          value={search}
          placeholder="Search by name, e-mail or username"
          onSearch={(value) => {
            setSearch(value);
            setOffset(0);
          }}
        />
        {members.isFetching && !members.isPending ? <Spinner /> : null}
      </div>
      {members.isPending ? <LoadingBlock label="Loading members…" /> : null}
      {members.isError ? <Alert tone="error">{errorMessage(members.error)}</Alert> : null}
      {members.data && members.data.members.length === 0 ? (
        <EmptyState title="No members match">Try another name or e-mail.</EmptyState>
      ) : null}
      {members.data && members.data.members.length > 0 ? (
        <Table columns={["Member", "Role", "Teams", "Joined", ""]}>
          {members.data.members.map((member) => {
            const isSelf = member.userId === userId;
            const isOwnerRow = hasOwnerRole(member.role);
            // Only an owner changes an owner, and the last owner stays one (the server refuses both).
            const mayEditRow = canUpdateMembers && (isOwner || !isOwnerRow) && !(isOwnerRow && ownerCount <= 1);
            const mayRemoveRow = !isSelf && canRemoveMembers && (isOwner || !isOwnerRow);
            return (
              <tr key={member.id}>
                <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1">
                  <div className="flex items-center gap-3">
                    <Avatar name={member.user.name} image={member.user.image} size="sm" />
                    <div className="min-w-0 sm:max-w-xs">
                      <p className="truncate font-medium" title={member.user.name}>
                        {member.user.name}{" "}
                        {isSelf ? (
                          <span className="text-xs font-normal text-zinc-500 dark:text-zinc-400">(you)</span>
                        ) : null}
                        {member.provisioned ? (
                          <Badge tone="info" className="ml-1">
                            Provisioned
                          </Badge>
                        ) : null}
                      </p>
                      <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={member.user.email}>
                        {member.user.email}
                      </p>
                    </div>
                  </div>
                </td>
                <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-2 max-sm:ml-11">
                  {mayEditRow ? (
                    <select
                      aria-label={`Role of ${member.user.name}`}
                      value={member.role}
                      disabled={changingId === member.id}
                      onChange={(event) =>
                        setRoleChange({ member, role: event.target.value as OrganizationRole, isSelf })
                      }
                      className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
                    >
                      {ORGANIZATION_ROLES.filter((role) => role !== "owner" || isOwner).map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </option>
                      ))}
                      {ORGANIZATION_ROLES.includes(member.role as never) ? null : (
                        <option value={member.role}>{rolesLabel(member.role)}</option>
                      )}
                    </select>
                  ) : (
                    <RoleBadge role={member.role} />
                  )}
                </td>
                <td className="py-3 pr-4 text-zinc-600 max-sm:col-span-2 max-sm:row-start-3 max-sm:ml-11 dark:text-zinc-300">
                  <MobileLabel>Teams: </MobileLabel>
                  {member.teams.length ? member.teams.map((team) => team.name).join(", ") : "—"}
                </td>
                <td className="py-3 pr-4 whitespace-nowrap max-sm:col-span-2 max-sm:row-start-4 max-sm:ml-11 max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
                  <MobileLabel>Joined </MobileLabel>
                  {formatDateTime(member.createdAt)}
                </td>
                <td className="py-3 text-right max-sm:col-start-2 max-sm:row-start-1 max-sm:self-center">
                  {mayRemoveRow ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setRemoving(member)}
                      aria-label={`Remove ${member.user.name}`}
                    >
                      Remove
                    </Button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </Table>
      ) : null}
      <Pagination label="Member pages" offset={offset} pageSize={PAGE_SIZE} total={total} onChange={setOffset} />
      <ConfirmDialog
        open={roleChange !== null}
        onOpenChange={(open) => !open && setRoleChange(null)}
        title={
          roleChange
            ? roleChange.isSelf
              ? `Change your role to ${ROLE_LABELS[roleChange.role]}?`
              : `Make ${roleChange.member.user.name} ${withArticle(roleChange.role)}?`
            : ""
        }
        description={roleChange ? describeRoleChange(roleChange, organization.name) : ""}
        confirmLabel={roleChange ? `Make ${roleChange.isSelf ? "me" : "them"} ${ROLE_LABELS[roleChange.role]}` : ""}
        isDanger={
          roleChange ? roleChange.isSelf || roleChange.role === "owner" || hasOwnerRole(roleChange.member.role) : false
        }
        onConfirm={() =>
          roleChange
            ? updateMemberRole.mutateAsync({ member: roleChange.member, role: roleChange.role })
            : Promise.resolve()
        }
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove ${removing?.user.name ?? "member"}?`}
        description={`${removing?.user.email ?? ""} will lose access to ${organization.name}.`}
        confirmLabel="Remove member"
        onConfirm={() => (removing ? removeMember.mutateAsync(removing) : Promise.resolve())}
      />
    </Card>
  );
}
