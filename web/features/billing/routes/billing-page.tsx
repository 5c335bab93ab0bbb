import { useNavigate } from "@tanstack/react-router";
import { useCallback, useRef, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { errorMessage } from "../../../lib/api-error";
import { useBillingOverview, useOpenPortal, usePlans, useResumeSubscription } from "../api/billing";
import { isBillingNotConfigured } from "../api/billing-errors";
import { BillingSkeleton, PlansSkeleton } from "../components/billing-skeleton";
import { findPrice, formatDate, hasChangeableSubscription } from "../components/billing-format";
import { CancelSubscriptionDialog } from "../components/cancel-subscription-dialog";
import { ChangePlanDialog } from "../components/change-plan-dialog";
import { CheckoutDialog } from "../components/checkout-dialog";
import { CheckoutReturnNotice } from "../components/checkout-return";
import { CurrentPlanCard } from "../components/current-plan-card";
import { OrdersTable } from "../components/orders-table";
import { PlanComparison, type PlanChoice } from "../components/plan-comparison";
import { SeatsCard } from "../components/seats-card";
import { UsageCard } from "../components/usage-card";

function LoadError({
  title,
  error,
  onRetry,
  isRetrying,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  isRetrying: boolean;
}) {
  return (
    <Alert tone="error" title={title}>
      <p>{errorMessage(error)}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry} isLoading={isRetrying}>
        Try again
      </Button>
    </Alert>
  );
}

/**
 * Organization settings › Billing. Every member sees the plan, usage and payments; owners and admins also buy,
 * change, cancel and resume plans, change seats and open the provider's portal. `checkout` is the `?checkout=`
 * the hosted checkout sends the buyer back with.
 */
export function BillingPage({ organizationId, checkout }: { organizationId: string; checkout?: string }) {
  const overview = useBillingOverview(organizationId);
  const plans = usePlans();
  const navigate = useNavigate();
  const portal = useOpenPortal(organizationId);
  const resume = useResumeSubscription(organizationId);
  const [choice, setChoice] = useState<PlanChoice | null>(null);
  const [isCanceling, setCanceling] = useState(false);
  // Where focus goes when a change removes the button that had it (the plan card's "Switch to…" after a switch).
  const planTitle = useRef<HTMLHeadingElement>(null);
  const clearCheckout = useCallback(
    () =>
      void navigate({
        to: "/organizations/$organizationId/settings/billing",
        params: { organizationId },
        search: {},
        replace: true,
      }),
    [navigate, organizationId],
  );

  if (overview.isPending) return <BillingSkeleton />;
  if (isBillingNotConfigured(overview.error)) {
    return (
      <Alert tone="info" title="Billing is not set up">
        <p>{errorMessage(overview.error)}</p>
      </Alert>
    );
  }
  if (overview.isError) {
    return (
      <LoadError
        title="Billing could not load"
        error={overview.error}
        onRetry={() => overview.refetch()}
        isRetrying={overview.isFetching}
      />
    );
  }

  const data = overview.data;
  const { subscription, canManage } = data;
  const current = findPrice(plans.data?.plans ?? [], subscription?.productId ?? data.plan.productId);
  const hasCustomer = subscription !== null || data.orders.length > 0;
  const openPortal = () => portal.mutate();
  const isPortalBusy = portal.isPending || portal.isSuccess;

  return (
    <div className="space-y-6">
      {checkout ? (
        <CheckoutReturnNotice
          organizationId={organizationId}
          checkout={checkout}
          lastCheckout={data.lastCheckout}
          onDone={clearCheckout}
        />
      ) : null}
      {canManage ? null : <Alert tone="info">Only owners and admins can change billing.</Alert>}

      <CurrentPlanCard
        overview={data}
        plans={plans.data?.plans}
        titleRef={planTitle}
        action={
          canManage && hasCustomer ? (
            <Button
              variant="secondary"
              size="sm"
              className="max-w-full whitespace-normal!"
              onClick={openPortal}
              isLoading={isPortalBusy}
            >
              Manage payment method and invoices
            </Button>
          ) : null
        }
      >
        {canManage && hasChangeableSubscription(subscription) ? (
          subscription.cancelAtPeriodEnd ? (
            <Button onClick={() => resume.mutate({ cancelAtPeriodEnd: false })} isLoading={resume.isPending}>
              Resume subscription
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => setCanceling(true)}>
              Cancel subscription
            </Button>
          )
        ) : null}
      </CurrentPlanCard>

      {canManage && subscription?.seats != null && hasChangeableSubscription(subscription) ? (
        <SeatsCard organizationId={organizationId} overview={data} price={current?.price} />
      ) : null}

      {canManage ? (
        plans.isPending ? (
          <PlansSkeleton />
        ) : plans.isError ? (
          <Card>
            <CardHeader title="Plans" />
            <LoadError
              title="The plans could not load"
              error={plans.error}
              onRetry={() => plans.refetch()}
              isRetrying={plans.isFetching}
            />
          </Card>
        ) : (
          <PlanComparison
            overview={data}
            plans={plans.data.plans}
            canManage={canManage}
            onChoose={setChoice}
            onChooseFree={() => setCanceling(true)}
          />
        )
      ) : null}

      <UsageCard meters={data.meters} price={current?.price} currency={data.subscription?.currency} />

      <Card>
        <CardHeader
          title="Payments"
          description={canManage ? "Receipts and invoices are in the payment provider's portal." : undefined}
        />
        <OrdersTable
          orders={data.orders}
          action={
            canManage
              ? (order) => (
                  <button
                    type="button"
                    onClick={openPortal}
                    disabled={isPortalBusy}
                    aria-label={`Invoice for the payment of ${formatDate(order.createdAt)}, in the payment provider's portal`}
                    className="font-medium text-brand-600 hover:underline disabled:opacity-60 dark:text-brand-400"
                  >
                    Invoice
                  </button>
                )
              : undefined
          }
        />
      </Card>

      {canManage ? (
        <>
          <CheckoutDialog
            organizationId={organizationId}
            choice={choice?.mode === "checkout" ? choice : null}
            onClose={() => setChoice(null)}
          />
          <ChangePlanDialog
            organizationId={organizationId}
            overview={data}
            choice={choice?.mode === "change" ? choice : null}
            onClose={() => setChoice(null)}
            fallbackFocus={planTitle}
          />
          <CancelSubscriptionDialog
            organizationId={organizationId}
            overview={data}
            freePlan={plans.data?.plans.find((plan) => plan.prices.length === 0)}
            open={isCanceling}
            onClose={() => setCanceling(false)}
            fallbackFocus={planTitle}
          />
        </>
      ) : null}
    </div>
  );
}
