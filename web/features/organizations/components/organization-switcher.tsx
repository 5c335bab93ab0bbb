import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useNavigate } from "@tanstack/react-router";
import { Avatar } from "../../../components/ui/avatar";
import { useSession } from "../../../lib/session";
import { useOrganizations, useSwitchOrganization } from "../api/organizations";

const item =
  "flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800";

/**
 * Shows the session's active organization and switches it; every page has it in the header. An organization's
 * settings page makes its organization the active one, so the two agree. The button's name holds its visible text
 * exactly ("Organization: Acme. Switch organization"), so speech users can say what they see (WCAG 2.5.3).
 */
export function OrganizationSwitcher() {
  const session = useSession();
  const organizations = useOrganizations();
  const switchOrganization = useSwitchOrganization();
  const navigate = useNavigate();
  const activeId = session.data?.session.activeOrganizationId ?? null;
  const active = organizations.data?.find((organization) => organization.id === activeId);
  const label = active?.name ?? "None selected";

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`Organization: ${label}. Switch organization`}
        className="flex max-w-44 min-w-0 items-center gap-2 sm:max-w-56 rounded-lg border border-zinc-200 px-2.5 py-1.5 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-800 dark:hover:bg-zinc-900"
      >
        {active ? <Avatar name={active.name} image={active.logo} size="xs" /> : null}
        <span className="truncate">{label}</span>
        <svg viewBox="0 0 20 20" className="size-4 shrink-0 text-zinc-400" fill="currentColor" aria-hidden="true">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        align="start"
        sideOffset={8}
        className="z-50 w-72 rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
      >
        <DropdownMenu.Label className="px-3 py-1.5 text-xs font-medium text-zinc-500 uppercase dark:text-zinc-400">
          Organizations
        </DropdownMenu.Label>
        {organizations.isPending ? (
          <p className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p>
        ) : null}
        {organizations.data?.length === 0 ? (
          <p className="px-3 py-2 text-sm text-zinc-500 dark:text-zinc-400">You are not in any organization yet.</p>
        ) : null}
        <DropdownMenu.RadioGroup
          value={activeId ?? ""}
          onValueChange={(organizationId) =>
            switchOrganization.mutate({
              organizationId,
              name: organizations.data?.find((organization) => organization.id === organizationId)?.name,
            })
          }
        >
          {organizations.data?.map((organization) => (
            <DropdownMenu.RadioItem key={organization.id} value={organization.id} className={item}>
              <Avatar name={organization.name} image={organization.logo} size="xs" />
              <span className="flex-1 truncate">{organization.name}</span>
              <DropdownMenu.ItemIndicator aria-hidden="true">✓</DropdownMenu.ItemIndicator>
            </DropdownMenu.RadioItem>
          ))}
        </DropdownMenu.RadioGroup>
        <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
        {active ? (
          <DropdownMenu.Item
            className={item}
            onSelect={() =>
              navigate({ to: "/organizations/$organizationId/settings", params: { organizationId: active.id } })
            }
          >
            Organization settings
          </DropdownMenu.Item>
        ) : null}
        <DropdownMenu.Item className={item} onSelect={() => navigate({ to: "/organizations/new" })}>
          Create organization
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
