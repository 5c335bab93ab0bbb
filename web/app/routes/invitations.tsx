import { useQuery } from "@tanstack/react-query";
import { createRoute } from "@tanstack/react-router";
import { metaQuery } from "../../lib/meta";
import { useDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { textSearch, rootRoute } from "./root";

// The query module loads with the page, not with the route definitions (on every page's first load).
const organizationsApi = () => import("../../features/organizations/api/organizations");

/** /invitations/$invitationId: the page an invitation e-mail links to, signed in or not. */
export const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/invitations/$invitationId",
  validateSearch: textSearch("email"),
  // The sign-in provider buttons, for someone who is signed out, depend on which providers the deployment has.
  // The preview names the organization and the inviter in the page and its title.
  loader: async ({ context: { queryClient }, params }) => {
    const { invitationPreviewQuery } = await organizationsApi();
    await settled(
      queryClient.ensureQueryData(metaQuery),
      queryClient.ensureQueryData(invitationPreviewQuery(params.invitationId)),
    );
  },
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/invitation-page"), organizationsApi()]),
    ([{ InvitationPage }, { invitationPreviewQuery }]) =>
      function Invitation() {
        const { invitationId } = invitationRoute.useParams();
        const preview = useQuery(invitationPreviewQuery(invitationId));
        useDocumentTitle(preview.isError ? "Invitation not found" : "Invitation", preview.data?.organizationName);
        return (
          <InvitationPage key={invitationId} invitationId={invitationId} email={invitationRoute.useSearch().email} />
        );
      },
  ),
);
