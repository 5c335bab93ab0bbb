import { useState, type ReactNode } from "react";
import { z } from "zod";
import { idSchema } from "../../../../../common/account.schemas";
import { teamNameSchema } from "../../../../../common/organization.schemas";
import { Alert } from "../../../../components/ui/alert";
import { Avatar } from "../../../../components/ui/avatar";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { ConfirmDialog, Dialog } from "../../../../components/ui/dialog";
import { EmptyState } from "../../../../components/ui/page";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { TextField } from "../../../../components/ui/text-field";
import { errorMessage } from "../../../../lib/api-error";
import { useZodForm } from "../../../../lib/form";
import {
  useAddTeamMember,
  useCreateTeam,
  useMembers,
  useRemoveTeam,
  useRemoveTeamMember,
  useRenameTeam,
  useTeams,
  type MemberListItem,
  type Team,
} from "../../api/organizations";
import { useOrganizationContext } from "../../components/organization-context";
import type { PlanLimitSlot } from "../../components/plan-limit-slot";

/** The server's refusal when the plan's teams are all created. */
const TEAMS_FULL = "Your plan's teams are all in use. Upgrade to create more teams.";

const addTeamMemberSchema = z.object({ userId: idSchema.min(1, "Choose a member") });

/** A team's name, for creating or renaming: every server answer about it is shown on the field. */
function TeamNameForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  locked,
}: {
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<unknown>;
  onCancel?: () => void;
  /** Shown instead of the submit button when the plan allows no more teams. */
  locked?: ReactNode;
}) {
  const form = useZodForm(teamNameSchema, {
    defaultValues: { name: initial },
    serverErrors: { PLAN_LIMIT_REACHED: { message: TEAMS_FULL }, "*": "name" },
  });
  const submit = form.submit(async ({ name }) => {
    await onSubmit(name);
    form.reset({ name: initial });
  });
  return (
    <form
      onSubmit={locked ? (event) => event.preventDefault() : submit}
      noValidate
      className="flex flex-wrap items-start gap-3"
    >
      {form.formError ? (
        <div className="w-full">
          <Alert tone="error">{form.formError}</Alert>
        </div>
      ) : null}
      <TextField label="Team name" className="min-w-56 flex-1" disabled={Boolean(locked)} {...form.field("name")} />
      {locked ? (
        <div className="w-full">{locked}</div>
      ) : (
        <div className="flex gap-2 sm:mt-6.5">
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
        </div>
      )}
    </form>
  );
}

/** Why a team the caller manages has no Remove button (the server refuses both), or null when it has one. */
function whyNotRemovable(team: Team, teamCount: number, userId: string): string | null {
  if (teamCount <= 1) return "An organization keeps at least one team, so its last team cannot be removed.";
  if (team.members.some((member) => member.userId === userId))
    return "You are in this team, so another owner or admin has to remove it.";
  return null;
}

function TeamCard({
  team,
  members,
  canManage,
  teamCount,
}: {
  team: Team;
  members: MemberListItem[];
  canManage: boolean;
  teamCount: number;
}) {
  const { organization, userId } = useOrganizationContext();
  // better-auth creates every organization with a team named after it; while it keeps that name it follows renames.
  const isDefault = team.name === organization.name;
  const notRemovable = canManage ? whyNotRemovable(team, teamCount, userId) : null;
  const renameTeam = useRenameTeam(organization.id, team.id);
  const removeTeam = useRemoveTeam(organization.id, team.id);
  const addTeamMember = useAddTeamMember(organization.id, team.id);
  const removeTeamMember = useRemoveTeamMember(organization.id, team.id);
  const [isRenaming, setRenaming] = useState(false);
  const [isRemoving, setRemoving] = useState(false);
  const addForm = useZodForm(addTeamMemberSchema, { defaultValues: { userId: "" } });
  const userToAdd = addForm.watch("userId");
  const memberIds = new Set(team.members.map((member) => member.userId));
  const candidates = members.filter((member) => !memberIds.has(member.userId));
  const onAdd = addForm.submit((values) => addTeamMember.mutate(values, { onSuccess: () => addForm.reset() }));

  return (
    <Card>
      <CardHeader
        title={team.name}
        description={
          <>
            {`${team.members.length} member${team.members.length === 1 ? "" : "s"}`}
            {isDefault ? (
              <span className="mt-1 block">
                <span className="mr-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
                  Default team
                </span>
                Created with the organization and named after it: it is renamed with the organization until you give it
                a name of its own.
              </span>
            ) : null}
          </>
        }
        action={
          canManage ? (
            <div className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setRenaming(true)}
                aria-label={`Rename ${team.name}`}
              >
                Rename
              </Button>
              {notRemovable ? null : (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setRemoving(true)}
                  aria-label={`Remove team ${team.name}`}
                >
                  Remove
                </Button>
              )}
            </div>
          ) : null
        }
      />
      {notRemovable ? <p className="mb-3 text-sm text-zinc-500 dark:text-zinc-400">{notRemovable}</p> : null}
      {team.members.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No one is in this team yet.</p>
      ) : null}
      <ul aria-label={`Members of ${team.name}`} className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {team.members.map((teamMember) => {
          return (
            <li key={teamMember.userId} className="flex items-center justify-between gap-3 py-2">
              <div className="flex items-center gap-3">
                <Avatar name={teamMember.name} image={teamMember.image} size="sm" />
                <div>
                  <p className="text-sm font-medium">{teamMember.name}</p>
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">{teamMember.email}</p>
                </div>
              </div>
              {canManage ? (
                <Button
                  variant="ghost"
                  size="sm"
                  isLoading={removeTeamMember.isPending && removeTeamMember.variables.userId === teamMember.userId}
                  aria-label={`Remove ${teamMember.name} from ${team.name}`}
                  onClick={() => removeTeamMember.mutate({ userId: teamMember.userId })}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {canManage && candidates.length > 0 ? (
        <form className="mt-4 flex flex-wrap items-end gap-2" onSubmit={onAdd}>
          <label className="flex-1 text-sm">
            <span className="mb-1.5 block font-medium">Add a member to {team.name}</span>
            <select
              {...addForm.register("userId")}
              className="block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            >
              <option value="">Choose a member…</option>
              {candidates.map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.user.name} ({member.user.email})
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" variant="secondary" disabled={!userToAdd} isLoading={addTeamMember.isPending}>
            Add to team
          </Button>
        </form>
      ) : null}
      <Dialog open={isRenaming} onOpenChange={setRenaming} title={`Rename ${team.name}`}>
        <TeamNameForm
          initial={team.name}
          submitLabel="Save"
          onCancel={() => setRenaming(false)}
          onSubmit={async (name) => {
            await renameTeam.mutateAsync({ name });
            setRenaming(false);
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={isRemoving}
        onOpenChange={setRemoving}
        title={`Remove ${team.name}?`}
        description="The team is deleted; its members stay in the organization."
        confirmLabel="Remove team"
        onConfirm={() => removeTeam.mutateAsync()}
      />
    </Card>
  );
}

export function TeamsPage({ planLimit }: { planLimit?: PlanLimitSlot }) {
  const { organization, can } = useOrganizationContext();
  const createTeam = useCreateTeam(organization.id);
  const teams = useTeams(organization.id);
  const members = useMembers(organization.id, "", 0, 100);
  const canCreate = can({ team: ["create"] });
  const canManage = can({ team: ["update", "delete"] });

  return (
    <div className="space-y-6">
      {canCreate ? (
        <Card>
          <CardHeader
            title="Create a team"
            description={
              <>
                Teams group members inside the organization.
                {planLimit?.usage ? (
                  <span className="mt-1 block font-medium text-zinc-700 dark:text-zinc-300">{planLimit.usage}</span>
                ) : null}
              </>
            }
          />
          <TeamNameForm
            initial=""
            submitLabel="Create team"
            locked={planLimit?.locked}
            onSubmit={(name) => createTeam.mutateAsync({ name })}
          />
        </Card>
      ) : null}
      {teams.isPending ? <LoadingBlock label="Loading teams…" /> : null}
      {teams.isError ? <Alert tone="error">{errorMessage(teams.error)}</Alert> : null}
      {teams.data?.length === 0 ? (
        <EmptyState title="No teams yet">
          {canCreate ? "Create the first one above." : "Owners and admins can create teams."}
        </EmptyState>
      ) : null}
      {teams.data?.map((team) => (
        <TeamCard
          key={team.id}
          team={team}
          members={members.data?.members ?? []}
          canManage={canManage}
          teamCount={teams.data.length}
        />
      ))}
    </div>
  );
}
