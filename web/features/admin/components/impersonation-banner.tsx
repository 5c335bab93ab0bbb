import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { useToast } from "../../../components/ui/toast";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRefreshSession, useSession } from "../../auth/api/session";

/** Shown on every page while an admin browses as someone else, with the way back. */
export function ImpersonationBanner() {
  const session = useSession();
  const navigate = useNavigate();
  const toast = useToast();
  const refreshSession = useRefreshSession();
  const [isStopping, setStopping] = useState(false);
  if (!session.data?.session.impersonatedBy) return null;

  async function stop() {
    setStopping(true);
    try {
      unwrap(await authClient.admin.stopImpersonating());
      await refreshSession({ clearEverything: true });
      await navigate({ to: "/admin" });
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setStopping(false);
    }
  }

  return (
    <div role="status" className="flex flex-wrap items-center justify-center gap-3 bg-amber-400 px-4 py-2 text-sm font-medium text-amber-950">
      You are browsing as {session.data.user.name} ({session.data.user.email}).
      <Button size="sm" variant="secondary" onClick={stop} isLoading={isStopping}>
        Stop impersonating
      </Button>
    </div>
  );
}
