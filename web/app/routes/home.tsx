import { useQuery } from "@tanstack/react-query";
import { createRoute } from "@tanstack/react-router";
import { metaQuery } from "../../lib/meta";
import { sessionQuery, useSession } from "../../lib/session";
import { useDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { textSearch, rootRoute } from "./root";

// Query modules load with the page that reads them, not with the route definitions (on every page's first load).
const organizationsApi = () => import("../../features/organizations/api/organizations");

/** `/`: the landing page when signed out, the person's organizations when signed in. */
export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  validateSearch: textSearch("notice", "error"),
  loader: async ({ context: { queryClient } }) => {
    const session = await queryClient.ensureQueryData(sessionQuery).catch(() => null);
    if (!session) return;
    const { organizationsQuery } = await organizationsApi();
    await settled(queryClient.ensureQueryData(organizationsQuery), queryClient.ensureQueryData(metaQuery));
  },
}).lazy(
  lazyPage(
    // The home page, the organizations section and the billing feature's payment banner are three features' code,
    // composed here so none imports another.
    () =>
      Promise.all([
        import("../../features/home/routes/home-page"),
        import("../../features/organizations/components/your-organizations"),
        import("../../features/billing/components/payment-banner"),
        organizationsApi(),
      ]),
    ([{ HomePage }, { YourOrganizations }, { PaymentBanner }, { organizationsQuery }]) =>
      function Home() {
        useDocumentTitle("Home");
        const search = homeRoute.useSearch();
        const session = useSession();
        const organizations = useQuery({ ...organizationsQuery, enabled: Boolean(session.data) });
        const activeId = session.data?.session.activeOrganizationId;
        const active = activeId ? organizations.data?.find((organization) => organization.id === activeId) : undefined;
        return (
          <HomePage
            notice={search.notice}
            error={search.error}
            organizations={<YourOrganizations />}
            notices={active ? <PaymentBanner organizationId={active.id} organizationName={active.name} /> : undefined}
          />
        );
      },
  ),
);
