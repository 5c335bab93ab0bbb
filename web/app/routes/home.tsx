import { createRoute } from "@tanstack/react-router";
import { z } from "zod";
import { organizationsQuery } from "../../features/organizations/api/organizations";
import { metaQuery } from "../../lib/meta";
import { sessionQuery } from "../../lib/session";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { optionalText, rootRoute } from "./root";

/** `/`: the landing page when signed out, the person's organizations when signed in. */
export const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  validateSearch: z.object({ notice: optionalText, error: optionalText }),
  loader: async ({ context: { queryClient } }) => {
    const session = await queryClient.ensureQueryData(sessionQuery).catch(() => null);
    if (session) await settled(queryClient.ensureQueryData(organizationsQuery), queryClient.ensureQueryData(metaQuery));
  },
}).lazy(
  lazyPage(
    // The home page and the organizations section are two features' code, composed here so neither imports the other.
    () => Promise.all([import("../../features/home/routes/home-page"), import("../../features/organizations/components/your-organizations")]),
    ([{ HomePage }, { YourOrganizations }]) =>
      function Home() {
        const search = homeRoute.useSearch();
        return <HomePage notice={search.notice} error={search.error} organizations={<YourOrganizations />} />;
      },
  ),
);
