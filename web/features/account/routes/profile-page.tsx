import { profileSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { useToast } from "../../../components/ui/toast";
import { TextField } from "../../../components/ui/text-field";
import { ApiError, errorMessage, unwrap, USERNAME_TAKEN_MESSAGE } from "../../../lib/api-error";
import { authClient, type SessionUser } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { useRefreshSession } from "../../auth/api/session";
import { UsernameAvailability, useUsernameAvailability } from "../../auth/components/username-availability";

export function ProfilePage({ user }: { user: SessionUser }) {
  const toast = useToast();
  const refreshSession = useRefreshSession();
  const current = user.displayUsername || user.username || "";
  const form = useForm(profileSchema, { name: user.name, image: user.image ?? "", username: current });
  const availability = useUsernameAvailability(form.values.username ?? "", user.username);

  const onSubmit = form.handleSubmit(async ({ name, image, username }) => {
    if (availability === "taken") {
      form.setServerError(USERNAME_TAKEN_MESSAGE, "username");
      return;
    }
    try {
      const usernameChanged = (username ?? "") !== current;
      unwrap(
        await authClient.updateUser({
          name,
          image: image ? image : null,
          ...(usernameChanged && username ? { username, displayUsername: username } : {}),
        }),
      );
      await refreshSession();
      toast.success("Profile saved");
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) form.setServerError(error.message, "username");
      else form.setServerError(errorMessage(error));
    }
  });

  return (
    <Card>
      <CardHeader title="Profile" description="How other people see you in Atrium." />
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <div className="flex items-center gap-4">
          <Avatar name={form.values.name || user.name} image={form.values.image || null} size="lg" />
          <div className="text-sm">
            <p className="font-medium">{user.email}</p>
            <p className={user.emailVerified ? "text-emerald-600 dark:text-emerald-400" : "text-amber-600"}>
              {user.emailVerified ? "Verified e-mail address" : "E-mail not verified"}
            </p>
          </div>
        </div>
        <TextField label="Name" autoComplete="name" {...form.field("name")} />
        <TextField
          label="Avatar URL"
          type="url"
          placeholder="https://…"
          description="A link to a square picture. Leave empty to show your initials."
          {...form.field("image")}
        />
        <TextField label="Username" autoComplete="username" description={<UsernameAvailability state={availability} />} {...form.field("username")} />
        <div className="flex justify-end">
          <Button type="submit" isLoading={form.isSubmitting}>
            {form.isSubmitting ? "Saving…" : "Save profile"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
