import { Button } from "../../../components/ui/button";
import { useSession } from "../../../lib/session";
import { useStopImpersonating } from "../api/admin";

/** Shown on every page while an admin browses as someone else, with the way back. */
export function ImpersonationBanner() {
  const session = useSession();
  const stopImpersonating = useStopImpersonating();
  if (!session.data?.session.impersonatedBy) return null;

  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-3 bg-amber-400 px-4 py-2 text-sm font-medium text-amber-950"
    >
      You are browsing as {session.data.user.name} ({session.data.user.email}).
      <Button
        size="sm"
        variant="secondary"
        onClick={() => stopImpersonating.mutate()}
        isLoading={stopImpersonating.isPending}
      >
        Stop impersonating
      </Button>
    </div>
  );
}
