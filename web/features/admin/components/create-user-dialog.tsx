import { useNavigate } from "@tanstack/react-router";
import { createUserSchema } from "../../../../common/admin.schemas";
import { UsernameAvailability } from "../../../components/username-availability";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { USERNAME_TAKEN_MESSAGE } from "../../../lib/error-sentences";
import { useZodForm, type ServerErrorMap } from "../../../lib/form";
import { useUsernameAvailability } from "../../../lib/use-username-availability";
import { useCreateUser } from "../api/admin";
import { ChoiceField } from "../../../components/ui/choice-field";

/** better-auth's refusals that belong to one field; anything else shows above the form. */
const createUserServerErrors: ServerErrorMap<"email" | "username" | "password"> = {
  USER_ALREADY_EXISTS: "email",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "email",
  INVALID_EMAIL: "email",
  USERNAME_IS_ALREADY_TAKEN: "username",
  USERNAME_TOO_SHORT: "username",
  USERNAME_TOO_LONG: "username",
  INVALID_USERNAME: "username",
  "PASSWORD*": "password",
};

const ROLE_CHOICES = [
  { value: "user", label: "User", description: "Uses Atrium like anyone who signs up." },
  {
    value: "admin",
    label: "Platform admin",
    description: "Can also use this console: every user, organization and the audit log.",
  },
] as const;

const PASSWORD_CHOICES = [
  {
    value: "invite",
    label: "Send an invitation to set one",
    description: "They get an e-mail with a link to choose their own password.",
  },
  { value: "set", label: "Set a password now", description: "Tell them the password through a channel you trust." },
] as const;

function CreateUserForm({ onCancel }: { onCancel: () => void }) {
  const navigate = useNavigate();
  const createUser = useCreateUser();
  const form = useZodForm(createUserSchema, {
    defaultValues: { name: "", email: "", username: "", role: "user", passwordMode: "invite", password: "" },
    serverErrors: createUserServerErrors,
  });
  const availability = useUsernameAvailability(form.watch("username") ?? "");
  const passwordMode = form.watch("passwordMode");
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    if (availability === "taken") return form.setServerError(USERNAME_TAKEN_MESSAGE, "username");
    const user = await createUser.mutateAsync(values);
    await navigate({ to: "/admin/users/$userId", params: { userId: user.id } });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextField label="Name" autoComplete="off" autoFocus {...form.field("name")} />
      <TextField label="E-mail" type="email" autoComplete="off" {...form.field("email")} />
      <TextField
        label="Username (optional)"
        autoComplete="off"
        description={<UsernameAvailability state={availability} />}
        {...form.field("username")}
      />
      <ChoiceField legend="Platform role" choices={ROLE_CHOICES} {...form.field("role")} />
      <ChoiceField legend="Password" choices={PASSWORD_CHOICES} {...form.field("passwordMode")} />
      {passwordMode === "set" ? (
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          description="8 to 128 characters."
          {...form.field("password")}
        />
      ) : null}
      <DialogActions onCancel={onCancel}>
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? "Creating user…" : "Create user"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Creates an account and opens its page; the form starts empty each time the dialog opens. */
export function CreateUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create a user"
      description="Adds someone to this Atrium without waiting for them to sign up."
      size="lg"
    >
      {open ? <CreateUserForm onCancel={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}
