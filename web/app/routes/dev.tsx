import type { QueryClient } from "@tanstack/react-query";
import { createRoute, notFound } from "@tanstack/react-router";
import { metaQuery } from "../../lib/meta";
import { withDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { rootRoute } from "./root";

/**
 * The dev mailbox's data, starting with no recipient filter. Where it is off (production, or SMTP configured)
 * there is no such page: the not-found page, as for any other address.
 */
export async function loadDevMail(queryClient: QueryClient): Promise<void> {
  // A meta that does not load leaves the page to say what failed.
  const meta = await queryClient.ensureQueryData(metaQuery).catch(() => undefined);
  if (meta && !meta.devMailbox) throw notFound();
  const { devMailQuery } = await import("../../features/dev-mail/api/dev-mail");
  await settled(queryClient.ensureQueryData(devMailQuery("")));
}

/** /dev/mail: the dev mailbox. */
export const devMailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/dev/mail",
  loader: ({ context: { queryClient } }) => loadDevMail(queryClient),
}).lazy(
  lazyPage(
    () => import("../../features/dev-mail/routes/dev-mail-page"),
    (page) => withDocumentTitle(page.DevMailPage, "Dev mailbox"),
  ),
);
