import { useState } from "react";
import { inviteMemberSchema } from "../../../../../common/organization.schemas";
import { ORGANIZATION_ROLES } from "../../../../../common/permissions";
import { Alert } from "../../../../components/ui/alert";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { ConfirmDialog } from "../../../../components/ui/dialog";
import { EmptyState } from "../../../../components/ui/page";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { SelectField, TextField } from "../../../../components/ui/text-field";
import { errorMessage } from "../../../../lib/api-error";
import { formatDateTime, formatRelative } from "../../../../lib/format";
import { useZodForm } from "../../../../lib/form";
import {
  useCancelInvitation,
  useInvitations,
  useInviteMember,
  useResendInvitation,
  useTeams,
  type Invitation,
} from "../../api/organizations";
import { hasOwnerRole, ROLE_LABELS, RoleBadge, useOrganizationContext } from "../../components/organization-context";
import type { PlanLimitSlot } from "../../components/plan-limit-slot";

/** The server's refusal when every seat of the plan is taken (members and pending invitations count). */
const SEATS_FULL =
  "Every seat on your plan is taken by members and pending invitations. An owner can make room in Settings › Billing.";

export function InvitationsPage({ planLimit }: { planLimit?: PlanLimitSlot }) {
  const { organization, role: myRole, can } = useOrganizationContext();
  const inviteMember = useInviteMember(organization.id);
  const resendInvitation = useResendInvitation(organization.id);
  const cancelInvitation = useCancelInvitation();
  const canInvite = can({ invitation: ["create"] });
  const canCancel = can({ invitation: ["cancel"] });
  const invitations = useInvitations(organization.id, canInvite);
  const teams = useTeams(organization.id);
  const [canceling, setCanceling] = useState<Invitation | null>(null);
  const isOwner = hasOwnerRole(myRole);
  const form = useZodForm(inviteMemberSchema, {
    defaultValues: { email: "", role: "member", teamId: "" },
    serverErrors: { PLAN_LIMIT_REACHED: { message: SEATS_FULL } },
  });
  const isSubmitting = form.formState.isSubmitting;
  // Every seat is used: the fields are disabled too, so nobody fills in an invitation that cannot be sent.
  const isLocked = Boolean(planLimit?.locked);

  const onSubmit = form.submit(async (values) => {
    await inviteMember.mutateAsync(values);
    form.reset({ ...values, email: "" });
  });

  function resend(invitation: Invitation) {
    // better-auth lists a role as a string; a role the organization no longer has is refused by the server.
    resendInvitation.mutate({ email: invitation.email, role: invitation.role });
  }

  if (!canInvite) {
    return (
      <Card>
        <CardHeader title="Invitations" />
        <EmptyState title="Only owners and admins can invite people">
          Ask an owner or admin of {organization.name} to invite someone.
        </EmptyState>
      </Card>
    );
  }

  const pending = (invitations.data ?? []).filter((invitation) => invitation.status === "pending");
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Invite someone"
          description={
            <>
              They get an e-mail with a link. Invitations expire after 2 days.
              {planLimit?.usage ? (
                <span className="mt-1 block font-medium text-zinc-700 dark:text-zinc-300">{planLimit.usage}</span>
              ) : null}
            </>
          }
        />
        {/* Locked by the plan, Enter in the e-mail field must not send either (implicit submission). */}
        <form
          onSubmit={isLocked ? (event) => event.preventDefault() : onSubmit}
          noValidate
          className="grid gap-4 sm:grid-cols-[1fr_10rem_12rem_auto] sm:items-start"
        >
          {form.formError ? (
            <div className="sm:col-span-4">
              <Alert tone="error">{form.formError}</Alert>
            </div>
          ) : null}
          <TextField label="E-mail" type="email" autoComplete="off" disabled={isLocked} {...form.field("email")} />
          <SelectField label="Role" disabled={isLocked} {...form.field("role")}>
            {ORGANIZATION_ROLES.filter((role) => role !== "owner" || isOwner).map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </SelectField>
          <SelectField label="Team (optional)" disabled={isLocked} {...form.field("teamId")}>
            <option value="">No team</option>
            {teams.data?.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </SelectField>
          {planLimit?.locked ? null : (
            <Button type="submit" className="sm:mt-6.5" isLoading={isSubmitting}>
              {isSubmitting ? "Sending…" : "Send invitation"}
            </Button>
          )}
          {planLimit?.locked ? <div className="sm:col-span-4">{planLimit.locked}</div> : null}
        </form>
      </Card>
      <Card>
        <CardHeader title="Pending invitations" />
        {invitations.isPending ? <LoadingBlock label="Loading invitations…" /> : null}
        {invitations.isError ? <Alert tone="error">{errorMessage(invitations.error)}</Alert> : null}
        {invitations.data && pending.length === 0 ? <EmptyState title="No pending invitations" /> : null}
        {pending.length > 0 ? (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {pending.map((invitation) => {
              const isExpired = new Date(invitation.expiresAt).getTime() < Date.now();
              return (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="truncate font-medium" title={invitation.email}>
                      {invitation.email}
                    </p>
                    <p className="flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
                      <RoleBadge role={invitation.role} />
                      <span
                        title={formatDateTime(invitation.expiresAt)}
                        className={isExpired ? "text-red-600 dark:text-red-400" : undefined}
                      >
                        {isExpired ? "Expired" : "Expires"} {formatRelative(invitation.expiresAt)}
                      </span>
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      isLoading={resendInvitation.isPending && resendInvitation.variables.email === invitation.email}
                      onClick={() => resend(invitation)}
                      aria-label={`Resend invitation to ${invitation.email}`}
                    >
                      Resend
                    </Button>
                    {canCancel ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setCanceling(invitation)}
                        aria-label={`Cancel invitation to ${invitation.email}`}
                      >
                        Cancel
                      </Button>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
        ) : null}
      </Card>
      <ConfirmDialog
        open={canceling !== null}
        onOpenChange={(open) => !open && setCanceling(null)}
        title="Cancel this invitation?"
        description={`The link sent to ${canceling?.email ?? ""} will stop working.`}
        confirmLabel="Cancel invitation"
        onConfirm={() => (canceling ? cancelInvitation.mutateAsync(canceling) : Promise.resolve())}
      />
    </div>
  );
}
