import { useEffect, type ReactNode } from "react";

/** The product's name, last in every title. */
const PRODUCT = "Atrium";

/** "Members · Acme · Atrium": the most specific part first, empty parts (data still loading) left out. */
export function documentTitle(...parts: Array<string | null | undefined>): string {
  return [...parts.filter((part): part is string => Boolean(part?.trim())), PRODUCT].join(" · ");
}

/**
 * Gives the page its own document title. Only the page a route renders (the leaf) calls it, never a layout: effects
 * run child first, so a layout's title would overwrite its page's. Dynamic names (an organization, a user) update
 * the title when their query data changes.
 */
export function useDocumentTitle(...parts: Array<string | null | undefined>): void {
  const title = documentTitle(...parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** A page that takes no props, with a fixed title: `withDocumentTitle(page.DeleteAccountPage, "Delete account", "Account")`. */
export function withDocumentTitle(Page: () => ReactNode, ...parts: string[]) {
  return function Titled() {
    useDocumentTitle(...parts);
    return <Page />;
  };
}

/** The title as an element, for a page that only sometimes names itself (a layout's error state, with no page under it). */
export function DocumentTitle({ parts }: { parts: Array<string | null | undefined> }) {
  useDocumentTitle(...parts);
  return null;
}
