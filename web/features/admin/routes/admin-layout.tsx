import { Link, Outlet } from "@tanstack/react-router";
import { activeTabProps, tabLinkClass, TabNav } from "../../../components/ui/tabs";

/** The platform-admin console: its sections as tabs (users here, organizations' billing from the billing feature). */
export function AdminLayout() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <TabNav label="Admin console">
        <Link to="/admin" activeOptions={{ exact: true }} className={tabLinkClass} activeProps={activeTabProps}>
          Users
        </Link>
        <Link to="/admin/organizations" className={tabLinkClass} activeProps={activeTabProps}>
          Organizations
        </Link>
      </TabNav>
      <Outlet />
    </div>
  );
}
