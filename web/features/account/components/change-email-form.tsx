import { changeEmailSchema } from "../../../../common/account.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/text-field";
import { ERROR_SENTENCES } from "../../../lib/error-sentences";
import { useZodForm } from "../../../lib/form";
import { changeEmailServerErrors, useChangeEmail } from "../api/account";

/**
 * Changing the account's e-mail address. The new address gets a link, and the address changes only when it is
 * opened: until then the form says where the link went. The answer is the same when another account has the
 * address (no link goes out then), so the form never says whether an address is taken.
 */
export function ChangeEmailForm({ email }: { email: string }) {
  const changeEmail = useChangeEmail();
  const form = useZodForm(changeEmailSchema, {
    defaultValues: { newEmail: "" },
    serverErrors: changeEmailServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    // The server refuses it too (EMAIL_UNCHANGED); saying so here spares one of the few requests it allows.
    if (values.newEmail.toLowerCase() === email.toLowerCase())
      return form.setServerError(ERROR_SENTENCES.EMAIL_UNCHANGED, "newEmail");
    await changeEmail.mutateAsync(values);
    form.reset();
  });

  return (
    <Card>
      <CardHeader
        title="Change e-mail"
        description={
          `You sign in and get mail about your account at ${email}. ` +
          "A new address takes over once you open the link we send to it."
        }
      />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {changeEmail.isSuccess ? (
          <Alert tone="success" title="Check the new address's inbox">
            We sent a link to {changeEmail.variables.newEmail}. Your address changes when you open it; until then it
            stays {email}. The link works for 1 hour.
          </Alert>
        ) : null}
        <FormErrorAlert message={form.formError} />
        <TextField label="New e-mail address" type="email" autoComplete="email" {...form.field("newEmail")} />
        <div className="flex justify-end">
          <Button type="submit" isLoading={isSubmitting}>
            {isSubmitting ? "Sending…" : "Send confirmation link"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
