import { Link } from "@tanstack/react-router";
import { AuditDateRangeFields } from "../../../components/audit-log-table";
import { useState } from "react";
import {
  PLATFORM_ROLE_OPTIONS,
  SEARCH_MAX_LENGTH,
  type AdminUserListQuery,
  type AdminUserSort,
} from "../../../../common/admin.schemas";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { EmptyState, PageHeader } from "../../../components/ui/page";
import { PageSizeSelect, Pagination } from "../../../components/ui/pagination";
import { SearchInput } from "../../../components/ui/search-input";
import { LoadingBlock, Spinner } from "../../../components/ui/spinner";
import { MobileLabel, Table } from "../../../components/ui/table";
import { SelectField } from "../../../components/ui/text-field";
import { errorMessage } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import type { SearchChange } from "../../../lib/search-change";
import { useSearchText } from "../../../lib/use-search-text";
import { useAdminUsers } from "../api/admin";
import { CreateUserDialog } from "../components/create-user-dialog";
import { banEndText, PlatformRoleBadge, UserStatusBadges } from "../components/user-badges";

type Order = AdminUserListQuery["order"];

const SORT_CHOICES: ReadonlyArray<{ sort: AdminUserSort; order: Order; label: string }> = [
  { sort: "created", order: "desc", label: "Newest first" },
  { sort: "created", order: "asc", label: "Oldest first" },
  { sort: "name", order: "asc", label: "Name, A to Z" },
  { sort: "name", order: "desc", label: "Name, Z to A" },
  { sort: "email", order: "asc", label: "E-mail, A to Z" },
  { sort: "email", order: "desc", label: "E-mail, Z to A" },
  { sort: "username", order: "asc", label: "Username, A to Z" },
  { sort: "username", order: "desc", label: "Username, Z to A" },
];

/** The option of a select that is one of `options`, or undefined for "any" (the empty option). */
function optionOf<T extends string>(value: string, options: readonly T[]): T | undefined {
  return options.find((option) => option === value);
}

/** "1 user", "1,204 users", or for a total that is a lower bound "More than 25 users". */
function usersCount(total: number, totalIsLowerBound: boolean): string {
  if (totalIsLowerBound) return `More than ${(total - 1).toLocaleString()} users`;
  return `${total.toLocaleString()} ${total === 1 ? "user" : "users"}`;
}

/**
 * Every user, for platform admins: one search box over name, e-mail and username, filters, sorting and paging. The
 * whole view lives in the address (`search`), so it can be shared and survives reload and Back; `onSearchChange`
 * writes it back (`replace` while a search is being refined, so Back skips the keystrokes).
 */
export function AdminUsersPage({
  search,
  onSearchChange,
}: {
  search: AdminUserListQuery;
  onSearchChange: SearchChange<AdminUserListQuery>;
}) {
  const users = useAdminUsers(search);
  const [isCreating, setCreating] = useState(false);
  const [text, setText] = useSearchText(
    search.q,
    (q) => onSearchChange((current) => ({ ...current, q, offset: 0 }), { replace: Boolean(search.q && q) }),
    SEARCH_MAX_LENGTH,
  );
  /** Any change of what is listed starts again at the first page. */
  const filter = (patch: Partial<AdminUserListQuery>) =>
    onSearchChange((current) => ({ ...current, ...patch, offset: 0 }));
  const hasFilters = Boolean(
    search.q || search.role || search.status || search.verified || search.createdFrom || search.createdTo,
  );
  const clearFilters = () => {
    setText("");
    onSearchChange(({ sort, order, limit }) => ({ sort, order, limit, offset: 0 }));
  };
  const total = users.data?.total ?? 0;
  // A search on PostgreSQL is not counted past its page: "More than 25 users" when more follow.
  const totalIsLowerBound = users.data?.totalIsLowerBound ?? false;
  const rows = users.data?.users ?? [];
  const isUpdating = users.isPlaceholderData && users.isFetching;

  return (
    <>
      <PageHeader
        title="Users"
        description="Every account on this Atrium. Open one to see its sessions, organizations and history, or to act on it."
        action={<Button onClick={() => setCreating(true)}>Create user</Button>}
      />
      <Card>
        <div role="search" aria-label="Users" className="space-y-4">
          <SearchInput
            label="Search users"
            value={text}
            placeholder="Search by name, e-mail or username"
            onSearch={setText}
          />
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
            <SelectField
              label="Role"
              value={search.role ?? ""}
              onChange={(event) => filter({ role: optionOf(event.target.value, PLATFORM_ROLE_OPTIONS) })}
            >
              <option value="">Any role</option>
              <option value="admin">Admins</option>
              <option value="user">Users</option>
            </SelectField>
            <SelectField
              label="Status"
              value={search.status ?? ""}
              onChange={(event) => filter({ status: optionOf(event.target.value, ["active", "banned"]) })}
            >
              <option value="">Any status</option>
              <option value="active">Active</option>
              <option value="banned">Banned</option>
            </SelectField>
            <SelectField
              label="E-mail"
              value={search.verified ?? ""}
              onChange={(event) => filter({ verified: optionOf(event.target.value, ["yes", "no"]) })}
            >
              <option value="">Verified or not</option>
              <option value="yes">Verified</option>
              <option value="no">Not verified</option>
            </SelectField>
            <AuditDateRangeFields
              labels={{ from: "Signed up from", to: "Signed up until" }}
              from={search.createdFrom}
              to={search.createdTo}
              onChange={({ from, to }) => filter({ createdFrom: from, createdTo: to })}
            />
            <SelectField
              label="Sort by"
              value={`${search.sort}:${search.order}`}
              onChange={(event) => {
                const choice = SORT_CHOICES.find(({ sort, order }) => `${sort}:${order}` === event.target.value);
                if (choice) filter({ sort: choice.sort, order: choice.order });
              }}
            >
              {SORT_CHOICES.map(({ sort, order, label }) => (
                <option key={`${sort}:${order}`} value={`${sort}:${order}`}>
                  {label}
                </option>
              ))}
            </SelectField>
          </div>
        </div>

        <div className="mt-6 mb-2 flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-3">
            <p role="status" className="text-sm font-medium">
              {users.data ? usersCount(total, totalIsLowerBound) : ""}
            </p>
            {isUpdating ? <Spinner label="Updating…" /> : null}
            {/* When nothing matches, the empty state offers it instead. */}
            {hasFilters && rows.length > 0 ? (
              <Button variant="ghost" size="sm" onClick={clearFilters}>
                Clear filters
              </Button>
            ) : null}
          </div>
          <PageSizeSelect value={search.limit} onChange={(size) => filter({ limit: size })} />
        </div>

        {users.isPending ? <LoadingBlock label="Loading users…" /> : null}
        {users.isError ? (
          <Alert tone="error" title="The users could not load">
            <p>{errorMessage(users.error)}</p>
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              isLoading={users.isFetching}
              onClick={() => void users.refetch()}
            >
              Try again
            </Button>
          </Alert>
        ) : null}
        {users.data && rows.length === 0 ? (
          search.offset > 0 && total > 0 ? (
            <EmptyState title="This page is past the last user">
              <Button variant="secondary" size="sm" className="mt-3" onClick={() => filter({})}>
                Go to the first page
              </Button>
            </EmptyState>
          ) : (
            <EmptyState title="No users match">
              {hasFilters ? (
                <>
                  <p>Try another search, or fewer filters.</p>
                  <Button variant="secondary" size="sm" className="mt-3" onClick={clearFilters}>
                    Clear filters
                  </Button>
                </>
              ) : null}
            </EmptyState>
          )
        ) : null}
        {rows.length > 0 ? (
          <div aria-busy={isUpdating || undefined} className={isUpdating ? "opacity-60 transition-opacity" : undefined}>
            <Table label="Users" columns={["User", "Username", "Role", "Status", "Signed up"]}>
              {rows.map((user) => (
                <tr key={user.id}>
                  <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1">
                    <div className="flex items-center gap-3">
                      <Avatar name={user.name} image={user.image} size="sm" />
                      <div className="min-w-0 sm:max-w-xs">
                        <Link
                          title={user.name}
                          to="/admin/users/$userId"
                          params={{ userId: user.id }}
                          className="block truncate font-medium text-brand-700 hover:underline dark:text-brand-100"
                        >
                          {user.name}
                        </Link>
                        <p className="truncate text-xs text-zinc-500 dark:text-zinc-400" title={user.email}>
                          {user.email}
                        </p>
                      </div>
                    </div>
                  </td>
                  <td className="py-3 pr-4 text-zinc-600 max-sm:col-span-2 max-sm:row-start-3 max-sm:ml-11 dark:text-zinc-300">
                    <MobileLabel>Username: </MobileLabel>
                    {user.username ? `@${user.username}` : "—"}
                  </td>
                  <td className="py-3 pr-4 max-sm:col-start-2 max-sm:row-start-1 max-sm:self-center">
                    <PlatformRoleBadge user={user} />
                  </td>
                  <td
                    className="py-3 pr-4 max-sm:col-span-2 max-sm:row-start-2 max-sm:ml-11"
                    title={user.banned ? `Banned ${banEndText(user.banExpires)}` : undefined}
                  >
                    <UserStatusBadges user={user} />
                  </td>
                  <td className="py-3 pr-4 whitespace-nowrap max-sm:col-span-2 max-sm:row-start-4 max-sm:ml-11 max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
                    <MobileLabel>Signed up </MobileLabel>
                    {formatDateTime(user.createdAt)}
                  </td>
                </tr>
              ))}
            </Table>
          </div>
        ) : null}
        <Pagination
          label="User pages"
          offset={search.offset}
          pageSize={search.limit}
          total={total}
          totalIsLowerBound={totalIsLowerBound}
          onChange={(offset) => onSearchChange((current) => ({ ...current, offset }))}
        />
      </Card>
      <CreateUserDialog open={isCreating} onOpenChange={setCreating} />
    </>
  );
}
