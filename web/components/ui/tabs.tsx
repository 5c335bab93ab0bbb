import { useRouterState } from "@tanstack/react-router";
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { cn } from "../../lib/cn";

/**
 * The look of a row of tab links (`<TabNav>` of router `Link`s under a bottom border): pass `tabLinkClass` as the
 * link's `className` and `activeTabProps` as its `activeProps`, so the current tab is marked and announced.
 */
export const tabLinkClass =
  "-mb-px shrink-0 border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-zinc-600 hover:text-zinc-900 focus-visible:-outline-offset-2 dark:text-zinc-400 dark:hover:text-zinc-100";

export const activeTabProps = {
  className: "border-brand-600! text-brand-700! dark:border-brand-400! dark:text-brand-100!",
  "aria-current": "page" as const,
};

export const tabNavClass =
  "relative mb-8 flex gap-1 overflow-x-auto border-b border-zinc-200 [scrollbar-width:none] dark:border-zinc-800";

type Overflow = { start: boolean; end: boolean };

/** How far a tab row is scrolled: whether tabs are hidden before or after what shows. */
function overflowOf(nav: HTMLElement): Overflow {
  return { start: nav.scrollLeft > 1, end: nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1 };
}

/** Fades the side(s) of the row where more tabs are hidden, so a cut-off row says it scrolls. */
function fadeMask({ start, end }: Overflow): string | undefined {
  if (!start && !end) return undefined;
  return `linear-gradient(to right, ${start ? "transparent" : "#000"}, #000 ${FADE}, #000 calc(100% - ${FADE}), ${end ? "transparent" : "#000"})`;
}

/** Width of the faded edges, and how far from them a tab has to be to count as shown. */
const FADE = "2.5rem";
const FADE_PX = 40;

/** Scrolls the row so `tab` is in its middle (as far as the row scrolls). */
function centre(nav: HTMLElement, tab: HTMLElement, smooth: boolean) {
  const left = tab.offsetLeft - (nav.clientWidth - tab.offsetWidth) / 2;
  const reduceMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  nav.scrollTo({ left: Math.max(0, left), behavior: smooth && !reduceMotion ? "smooth" : "instant" });
}

/**
 * A row of tab links. When the tabs do not fit (a phone), the row scrolls sideways: the current tab is scrolled
 * into view on every navigation, the edge where more tabs are hidden fades out, and a tab reached with the
 * keyboard scrolls itself into view (the browser does that for focus).
 */
export function TabNav({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [overflow, setOverflow] = useState<Overflow>({ start: false, end: false });
  const hasScrolled = useRef(false);

  const measure = useCallback(() => {
    const nav = ref.current;
    if (!nav) return;
    const next = overflowOf(nav);
    setOverflow((previous) => (previous.start === next.start && previous.end === next.end ? previous : next));
  }, []);

  useLayoutEffect(() => {
    const nav = ref.current;
    const active = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (nav && active && nav.scrollWidth > nav.clientWidth) {
      centre(nav, active, hasScrolled.current);
      hasScrolled.current = true;
    }
    measure();
  }, [pathname, measure]);

  useEffect(() => {
    const nav = ref.current;
    if (!nav || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(nav);
    return () => observer.disconnect();
  }, [measure]);

  const mask = fadeMask(overflow);
  return (
    <nav
      ref={ref}
      aria-label={label}
      onScroll={measure}
      onFocus={(event) => {
        // A tab reached with the keyboard is brought out from under the faded edges (the browser only makes it visible).
        const nav = ref.current;
        const tab = event.target;
        if (!nav || tab === nav || nav.scrollWidth <= nav.clientWidth) return;
        const start = tab.offsetLeft - nav.scrollLeft;
        if (start < FADE_PX || start + tab.offsetWidth > nav.clientWidth - FADE_PX) centre(nav, tab, true);
      }}
      className={cn(tabNavClass, className)}
      style={mask ? { maskImage: mask } : undefined}
    >
      {children}
    </nav>
  );
}
