import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

/** A grey placeholder block in the shape of content that is loading; hidden from screen readers. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-zinc-200 dark:bg-zinc-800", className)} />;
}

/**
 * Wraps skeleton blocks: screen readers hear `label` once (a polite live region) instead of the empty shapes,
 * and assistive technology knows the region is busy.
 */
export function SkeletonGroup({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="status" aria-busy="true" className={className}>
      <span className="sr-only">{label}</span>
      {children}
    </div>
  );
}
