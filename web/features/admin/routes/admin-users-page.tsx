import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Button } from "../../../components/ui/button";
import { Pagination } from "../../../components/ui/pagination";
import { SearchInput } from "../../../components/ui/search-input";
import { Table } from "../../../components/ui/table";
import { Card } from "../../../components/ui/card";
import { EmptyState, PageHeader } from "../../../components/ui/page";
import { LoadingBlock, Spinner } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { useDebouncedValue } from "../../../lib/use-debounced-value";
import { useAdminUsers } from "../api/admin";
import { ManageUserDialog } from "../components/manage-user-dialog";

const PAGE_SIZE = 25;

/** The platform-admin console: every user, searchable, with the actions of the admin role. */
export function AdminUsersPage({ currentUserId }: { currentUserId: string }) {
  const [search, setSearch] = useState("");
  const [field, setField] = useState<"email" | "name">("email");
  const [offset, setOffset] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const users = useAdminUsers(useDebouncedValue(search.trim()), field, offset, PAGE_SIZE);
  const total = users.data?.total ?? 0;
  const selected = users.data?.users.find((user) => user.id === selectedId);

  return (
    <>
      <PageHeader title="Users" description="Every account on this Atrium: search, ban, impersonate, set roles and passwords, revoke sessions, delete." />
      <Card>
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <SearchInput
            label="Search users"
            value={search}
            placeholder={field === "email" ? "Search by e-mail" : "Search by name"}
            onSearch={(value) => {
              setSearch(value);
              setOffset(0);
            }}
          />
          <label className="flex items-center gap-2 text-sm">
            <span>in</span>
            <select
              value={field}
              onChange={(event) => {
                setField(event.target.value as "email" | "name");
                setOffset(0);
              }}
              className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            >
              <option value="email">e-mail</option>
              <option value="name">name</option>
            </select>
          </label>
          {users.isFetching && !users.isPending ? <Spinner /> : null}
        </div>
        {users.isPending ? <LoadingBlock label="Loading users…" /> : null}
        {users.isError ? <Alert tone="error">{errorMessage(users.error)}</Alert> : null}
        {users.data?.users.length === 0 ? <EmptyState title="No users match">Try another search.</EmptyState> : null}
        {users.data && users.data.users.length > 0 ? (
          <Table columns={["User", "Role", "Status", "Joined", ""]}>
            {users.data.users.map((user) => (
              <tr key={user.id}>
                <td className="py-3 pr-4">
                  <div className="flex items-center gap-3">
                    <Avatar name={user.name} image={user.image} size="sm" />
                    <div className="min-w-0">
                      <p className="truncate font-medium">{user.name}</p>
                      <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{user.email}</p>
                    </div>
                  </div>
                </td>
                <td className="py-3 pr-4">{user.role ?? "user"}</td>
                <td className="py-3 pr-4">
                  {user.banned ? (
                    <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-700 dark:bg-red-900/50 dark:text-red-300">Banned</span>
                  ) : user.emailVerified ? (
                    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-900/50 dark:text-emerald-300">
                      Active
                    </span>
                  ) : (
                    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-700 dark:bg-amber-900/50 dark:text-amber-300">
                      Unverified
                    </span>
                  )}
                </td>
                <td className="py-3 pr-4 whitespace-nowrap">{formatDateTime(user.createdAt)}</td>
                <td className="py-3 text-right">
                  <Button variant="secondary" size="sm" onClick={() => setSelectedId(user.id)} aria-label={`Manage ${user.name}`}>
                    Manage
                  </Button>
                </td>
              </tr>
            ))}
          </Table>
        ) : null}
        <Pagination label="User pages" offset={offset} pageSize={PAGE_SIZE} total={total} onChange={setOffset} />
      </Card>
      {selected ? <ManageUserDialog key={selected.id} user={selected} isSelf={selected.id === currentUserId} onClose={() => setSelectedId(null)} /> : null}
    </>
  );
}
