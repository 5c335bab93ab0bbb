import { createRoute } from "@tanstack/react-router";
import { z } from "zod";
import { metaQuery } from "../../lib/meta";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { optionalText, rootRoute } from "./root";

/** /invitations/$invitationId: the page an invitation e-mail links to, signed in or not. */
export const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/invitations/$invitationId",
  validateSearch: z.object({ email: optionalText }),
  // The sign-in provider buttons, for someone who is signed out, depend on which providers the deployment has.
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/invitation-page"),
    ({ InvitationPage }) =>
      function Invitation() {
        const { invitationId } = invitationRoute.useParams();
        return <InvitationPage key={invitationId} invitationId={invitationId} email={invitationRoute.useSearch().email} />;
      },
  ),
);
