import { Card } from "../../../components/ui/card";
import { Skeleton, SkeletonGroup } from "../../../components/ui/skeleton";

function CurrentPlanSkeleton() {
  return (
    <Card>
      <Skeleton className="h-5 w-32" />
      <Skeleton className="mt-5 h-8 w-48" />
      <Skeleton className="mt-3 h-4 w-72 max-w-full" />
      <div className="mt-6 grid gap-4 sm:grid-cols-3">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    </Card>
  );
}

function PaymentsSkeleton() {
  return (
    <Card>
      <Skeleton className="h-5 w-24" />
      <div className="mt-5 space-y-3">
        <Skeleton className="h-6" />
        <Skeleton className="h-6" />
        <Skeleton className="h-6" />
      </div>
    </Card>
  );
}

/** The billing page's shape while its data loads: the plan card, the plans (for those who can change them), the payments. */
export function BillingSkeleton() {
  return (
    <SkeletonGroup label="Loading billing" className="space-y-6">
      <CurrentPlanSkeleton />
      <PlansSkeleton />
      <PaymentsSkeleton />
    </SkeletonGroup>
  );
}

/** An organization's billing panel in the admin console while it loads: the sync line, the plan and subscription, the payments. */
export function AdminOrganizationBillingSkeleton() {
  return (
    <SkeletonGroup label="Loading billing" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Skeleton className="h-4 w-64 max-w-full" />
        <Skeleton className="h-10 w-40" />
      </div>
      <CurrentPlanSkeleton />
      <Card>
        <Skeleton className="h-5 w-28" />
        <div className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      </Card>
      <PaymentsSkeleton />
    </SkeletonGroup>
  );
}

export function PlansSkeleton() {
  return (
    <Card>
      <Skeleton className="h-5 w-20" />
      <div className="mt-5 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        <Skeleton className="h-64 rounded-xl" />
        <Skeleton className="h-64 rounded-xl" />
        <Skeleton className="h-64 rounded-xl" />
      </div>
    </Card>
  );
}
