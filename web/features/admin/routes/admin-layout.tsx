import { Link, Outlet, useRouterState } from "@tanstack/react-router";
import { activeTabProps, tabLinkClass, TabNav } from "../../../components/ui/tabs";
import { cn } from "../../../lib/cn";

/** The platform-admin console: its sections as tabs. A user's page is part of Users, an organization's of Organizations. */
export function AdminLayout() {
  // The router calls /admin active either exactly (not on a user's page) or on every /admin/… (the other tabs too).
  const isUsers = useRouterState({ select: (state) => /^\/admin(\/|\/users\/.*)?$/.test(state.location.pathname) });
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <TabNav label="Admin console">
        <Link
          to="/admin"
          activeOptions={{ exact: true, includeSearch: false }}
          className={cn(tabLinkClass, isUsers && activeTabProps.className)}
          aria-current={isUsers ? "page" : undefined}
        >
          Users
        </Link>
        <Link
          to="/admin/organizations"
          activeOptions={{ includeSearch: false }}
          className={tabLinkClass}
          activeProps={activeTabProps}
        >
          Organizations
        </Link>
        <Link
          to="/admin/audit-log"
          activeOptions={{ includeSearch: false }}
          className={tabLinkClass}
          activeProps={activeTabProps}
        >
          Audit log
        </Link>
      </TabNav>
      <Outlet />
    </div>
  );
}
