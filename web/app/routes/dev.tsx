import { createRoute } from "@tanstack/react-router";
import { withDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { rootRoute } from "./root";

/** /dev/mail: the dev mailbox (the server answers 404 when it is off). */
export const devMailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/dev/mail",
  // The page starts with no recipient filter.
  loader: async ({ context: { queryClient } }) => {
    const { devMailQuery } = await import("../../features/dev-mail/api/dev-mail");
    await settled(queryClient.ensureQueryData(devMailQuery("")));
  },
}).lazy(
  lazyPage(
    () => import("../../features/dev-mail/routes/dev-mail-page"),
    (page) => withDocumentTitle(page.DevMailPage, "Dev mailbox"),
  ),
);
