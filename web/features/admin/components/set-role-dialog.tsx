import { z } from "zod";
import { PLATFORM_ROLE_OPTIONS, type PlatformRoleOption } from "../../../../common/admin.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { useZodForm } from "../../../lib/form";
import { useSetUserRole } from "../api/admin";
import { ChoiceField } from "../../../components/ui/choice-field";
import type { UserDialogProps } from "./user-dialog";

const setRoleSchema = z.object({ role: z.enum(PLATFORM_ROLE_OPTIONS) });

const ROLE_CHOICES = [
  { value: "user", label: "User", description: "Uses Atrium like anyone who signs up; no access to this console." },
  {
    value: "admin",
    label: "Platform admin",
    description:
      "Can use this console: see and change every user and organization, impersonate users, read the audit log.",
  },
] as const;

/** The platform role a user's stored role amounts to (better-auth keeps several as "admin,user"). */
export function platformRoleOf(role: string): PlatformRoleOption {
  return role.split(",").includes("admin") ? "admin" : "user";
}

type RoleUser = { id: string; name: string; role: string; isPlatformAdmin: boolean };

function SetRoleForm({ user, onCancel, onDone }: { user: RoleUser; onCancel: () => void; onDone: () => void }) {
  const current = platformRoleOf(user.role);
  const setRole = useSetUserRole(user);
  const form = useZodForm(setRoleSchema, { defaultValues: { role: current } });
  const role = form.watch("role");
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async (values) => {
    await setRole.mutateAsync(values);
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <ChoiceField legend="Platform role" choices={ROLE_CHOICES} {...form.field("role")} />
      {role === current ? null : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
          {role === "admin"
            ? `${user.name} will be able to open this console and change every user and organization, from their next page.`
            : `${user.name} will lose access to this console and everything in it.`}
        </p>
      )}
      {/* A configured administrator id makes someone an admin whatever their role says. */}
      {user.isPlatformAdmin && current === "user" ? (
        <Alert tone="info">{`${user.name} is a platform admin through the server's configuration; their role does not change that.`}</Alert>
      ) : null}
      <DialogActions onCancel={onCancel}>
        <Button
          type="submit"
          variant={role === "admin" ? "primary" : "danger"}
          disabled={role === current}
          isLoading={isSubmitting}
        >
          {role === "admin" ? "Make platform admin" : "Make regular user"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Changes a user's platform role; the page never offers it for the signed-in admin's own account. */
export function SetRoleDialog({ user, open, onOpenChange, fallbackFocus }: UserDialogProps<RoleUser>) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Change the role of ${user.name}`}
      description={
        platformRoleOf(user.role) === "admin" ? `${user.name} is a platform admin.` : `${user.name} is a regular user.`
      }
      fallbackFocus={fallbackFocus}
    >
      {open ? (
        <SetRoleForm user={user} onCancel={() => onOpenChange(false)} onDone={() => onOpenChange(false)} />
      ) : null}
    </Dialog>
  );
}
