import { Link } from "@tanstack/react-router";

const tabs = [
  { to: "/account", label: "Profile" },
  { to: "/account/sign-in-methods", label: "Sign-in methods" },
  { to: "/account/password", label: "Password" },
  { to: "/account/security", label: "Security" },
  { to: "/account/sessions", label: "Sessions" },
  { to: "/account/delete", label: "Delete account" },
] as const;

export function AccountNav() {
  return (
    <nav
      aria-label="Account settings"
      className="mb-8 flex gap-1 overflow-x-auto border-b border-zinc-200 dark:border-zinc-800"
    >
      {tabs.map((tab) => (
        <Link
          key={tab.to}
          to={tab.to}
          activeOptions={{ exact: true }}
          className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
          activeProps={{ className: "border-brand-600! text-brand-700! dark:text-brand-100!", "aria-current": "page" }}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
