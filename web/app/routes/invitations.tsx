import { useQuery } from "@tanstack/react-query";
import { createRoute } from "@tanstack/react-router";
import { z } from "zod";
import { invitationPreviewQuery } from "../../features/organizations/api/organizations";
import { metaQuery } from "../../lib/meta";
import { useDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { optionalText, rootRoute } from "./root";

/** /invitations/$invitationId: the page an invitation e-mail links to, signed in or not. */
export const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/invitations/$invitationId",
  validateSearch: z.object({ email: optionalText }),
  // The sign-in provider buttons, for someone who is signed out, depend on which providers the deployment has.
  // The preview names the organization and the inviter in the page and its title.
  loader: ({ context: { queryClient }, params }) =>
    settled(queryClient.ensureQueryData(metaQuery), queryClient.ensureQueryData(invitationPreviewQuery(params.invitationId))),
}).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/invitation-page"),
    ({ InvitationPage }) =>
      function Invitation() {
        const { invitationId } = invitationRoute.useParams();
        const preview = useQuery(invitationPreviewQuery(invitationId));
        useDocumentTitle(preview.isError ? "Invitation not found" : "Invitation", preview.data?.organizationName);
        return <InvitationPage key={invitationId} invitationId={invitationId} email={invitationRoute.useSearch().email} />;
      },
  ),
);
