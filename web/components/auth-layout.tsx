import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";

/** The centred card every signed-out page uses. */
export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto flex min-h-[calc(100vh-4rem)] max-w-md flex-col justify-center px-4 py-12">
      <div className="rounded-2xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{description}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">{footer}</div> : null}
    </div>
  );
}

export function TextLink({
  to,
  search,
  children,
}: {
  to: string;
  search?: Record<string, string | undefined>;
  children: ReactNode;
}) {
  return (
    <Link to={to} search={search} className="font-medium text-brand-600 hover:underline dark:text-brand-400">
      {children}
    </Link>
  );
}
