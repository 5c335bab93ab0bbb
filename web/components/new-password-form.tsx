import { resetPasswordSchema } from "../../common/account.schemas";
import { useZodForm } from "../lib/form";
import { FormErrorAlert } from "./form-error-alert";
import { Button } from "./ui/button";
import { TextField } from "./ui/text-field";

type Wording = { password: string; confirm: string; submit: string };

/**
 * A new password typed twice, for the pages a mailed link opens (reset a password, set a first one); the page says
 * what saving does and where the person goes next.
 */
export function NewPasswordForm({
  wording,
  onSave,
  className = "space-y-4",
  buttonClassName,
}: {
  wording: Wording;
  onSave: (newPassword: string) => Promise<void>;
  className?: string;
  buttonClassName?: string;
}) {
  const form = useZodForm(resetPasswordSchema, { defaultValues: { newPassword: "", confirmPassword: "" } });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(({ newPassword }) => onSave(newPassword));

  return (
    <form onSubmit={onSubmit} noValidate className={className}>
      <FormErrorAlert message={form.formError} />
      <TextField
        label={wording.password}
        type="password"
        autoComplete="new-password"
        autoFocus
        description="8 to 128 characters."
        {...form.field("newPassword")}
      />
      <TextField
        label={wording.confirm}
        type="password"
        autoComplete="new-password"
        {...form.field("confirmPassword")}
      />
      <Button type="submit" className={buttonClassName} isLoading={isSubmitting}>
        {isSubmitting ? "Saving…" : wording.submit}
      </Button>
    </form>
  );
}
