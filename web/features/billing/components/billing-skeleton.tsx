import { Card } from "../../../components/ui/card";
import { Skeleton, SkeletonGroup } from "../../../components/ui/skeleton";

/** The billing page's shape while its data loads: the plan card, the plans, the payments. */
export function BillingSkeleton() {
  return (
    <SkeletonGroup label="Loading billing" className="space-y-6">
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
      <PlansSkeleton />
      <Card>
        <Skeleton className="h-5 w-24" />
        <div className="mt-5 space-y-3">
          <Skeleton className="h-6" />
          <Skeleton className="h-6" />
          <Skeleton className="h-6" />
        </div>
      </Card>
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
