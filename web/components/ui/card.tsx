import type { ReactNode, Ref } from "react";
import { cn } from "../../lib/cn";

export function Card({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <section
      className={cn(
        "rounded-xl border border-zinc-200 bg-white p-6 shadow-xs dark:border-zinc-800 dark:bg-zinc-900",
        className,
      )}
    >
      {children}
    </section>
  );
}

/**
 * A card's title, description and action (which wraps under the title when both do not fit). `titleRef` lets a
 * page move focus to the title (it then takes focus from script only), for when what had focus is gone.
 */
export function CardHeader({
  title,
  description,
  action,
  titleRef,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  titleRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <div className="mb-5 flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
      <div className="min-w-0 flex-1 basis-64">
        <h2 ref={titleRef} tabIndex={titleRef ? -1 : undefined} className="text-base font-semibold focus:outline-none">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{description}</p> : null}
      </div>
      {action ? <div className="max-w-full min-w-0 shrink-0">{action}</div> : null}
    </div>
  );
}
