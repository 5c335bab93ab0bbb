import { useState } from "react";
import { profileSchema } from "../../../../common/account.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Avatar } from "../../../components/ui/avatar";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/text-field";
import { UsernameAvailability } from "../../../components/username-availability";
import { USERNAME_TAKEN_MESSAGE } from "../../../lib/error-sentences";
import type { SessionUser } from "../../../lib/auth-client";
import { useZodForm } from "../../../lib/form";
import { useUsernameAvailability } from "../../../lib/use-username-availability";
import { profileServerErrors, useUpdateProfile } from "../api/account";
import { ChangeEmailForm } from "../components/change-email-form";

export function ProfilePage({ user }: { user: SessionUser }) {
  const updateProfile = useUpdateProfile();
  // The username saved last: the route's `user` is the session as the page opened, so after a save it is this one,
  // which is the person's own (never "available") and what the next save compares with.
  const [saved, setSaved] = useState(user.displayUsername || user.username || "");
  const form = useZodForm(profileSchema, {
    defaultValues: { name: user.name, image: user.image ?? "", username: saved },
    serverErrors: profileServerErrors,
  });
  const [name, image, username] = form.watch(["name", "image", "username"]);
  const availability = useUsernameAvailability(username ?? "", saved);
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    if (availability === "taken") return form.setServerError(USERNAME_TAKEN_MESSAGE, "username");
    await updateProfile.mutateAsync({ ...values, currentUsername: saved });
    setSaved(values.username ?? "");
    form.reset(values);
  });

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Profile" description="How other people see you in Atrium." />
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          <FormErrorAlert message={form.formError} />
          <div className="flex items-center gap-4">
            <Avatar name={name || user.name} image={image || null} size="lg" />
            <div className="text-sm">
              <p className="font-medium">{user.email}</p>
              <p
                className={
                  user.emailVerified ? "text-emerald-700 dark:text-emerald-400" : "text-amber-700 dark:text-amber-400"
                }
              >
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
          <TextField
            label="Username"
            autoComplete="username"
            description={<UsernameAvailability state={availability} />}
            {...form.field("username")}
          />
          <div className="flex justify-end">
            <Button type="submit" isLoading={isSubmitting}>
              {isSubmitting ? "Saving…" : "Save profile"}
            </Button>
          </div>
        </form>
      </Card>
      <ChangeEmailForm email={user.email} />
    </div>
  );
}
