import { Outlet } from "@tanstack/react-router";
import { PageHeader } from "../../../components/ui/page";
import { AccountNav } from "../components/account-nav";

export function AccountLayout() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <PageHeader
        title="Account settings"
        description="Your profile, how you sign in, your sessions and your account."
      />
      <AccountNav />
      <Outlet />
    </div>
  );
}
