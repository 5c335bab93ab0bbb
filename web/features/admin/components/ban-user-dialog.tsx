import {
  BAN_DURATION_SECONDS,
  banUserSchema,
  type BanDuration,
  type BanUserInput,
} from "../../../../common/admin.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextAreaField, TextField } from "../../../components/ui/text-field";
import { formatDateTime } from "../../../lib/format";
import { useZodForm } from "../../../lib/form";
import { useBanUser } from "../api/admin";
import { ChoiceField, type Choice } from "../../../components/ui/choice-field";
import type { UserDialogProps } from "./user-dialog";

const DURATION_CHOICES: ReadonlyArray<Choice<BanDuration>> = [
  { value: "1h", label: "1 hour" },
  { value: "1d", label: "1 day" },
  { value: "7d", label: "7 days" },
  { value: "date", label: "Until a date", description: "The ban ends as that day starts, in your time zone." },
  { value: "permanent", label: "Permanently", description: "Until an admin lifts it." },
];

/** The local calendar day of `date`, as a date input reads and writes it (YYYY-MM-DD). */
function calendarDay(date: Date): string {
  return [
    date.getFullYear(),
    String(date.getMonth() + 1).padStart(2, "0"),
    String(date.getDate()).padStart(2, "0"),
  ].join("-");
}

/**
 * How long the ban lasts, in seconds from `now`, as better-auth's `banExpiresIn` takes it: a preset's length, or up to
 * local midnight at the start of the chosen day; undefined for a permanent ban (and a day not chosen yet).
 */
export function banExpiresIn(
  { duration, until }: Pick<BanUserInput, "duration" | "until">,
  now: Date = new Date(),
): number | undefined {
  if (duration === "permanent") return undefined;
  if (duration !== "date") return BAN_DURATION_SECONDS[duration];
  const [year, month, day] = (until ?? "").split("-").map(Number);
  if (!year || !month || !day) return undefined;
  return Math.round((new Date(year, month - 1, day).getTime() - now.getTime()) / 1000);
}

function BanForm({
  user,
  onCancel,
  onDone,
}: {
  user: { id: string; name: string };
  onCancel: () => void;
  onDone: () => void;
}) {
  const ban = useBanUser(user);
  const form = useZodForm(banUserSchema, { defaultValues: { reason: "", duration: "1d", until: "" } });
  const duration = form.watch("duration");
  const seconds = banExpiresIn({ duration, until: form.watch("until") });
  const isSubmitting = form.formState.isSubmitting;
  const tomorrow = calendarDay(new Date(Date.now() + 86_400_000));

  const onSubmit = form.submit(async (values) => {
    const expiresIn = banExpiresIn(values);
    // The schema reads the day in UTC; here it ends at local midnight, which east of UTC can already be past.
    if (expiresIn !== undefined && expiresIn <= 0) return form.setServerError("Choose a day in the future", "until");
    await ban.mutateAsync({ reason: values.reason, expiresIn });
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextAreaField
        label="Reason"
        rows={3}
        monospace={false}
        autoFocus
        description="Kept in the audit log. The person is not shown it."
        {...form.field("reason")}
      />
      <ChoiceField legend="Duration" choices={DURATION_CHOICES} {...form.field("duration")} />
      {duration === "date" ? (
        <TextField label="Ban ends on" type="date" min={tomorrow} {...form.field("until")} />
      ) : null}
      <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {duration === "permanent"
          ? `${user.name} stays banned until an admin lifts the ban.`
          : seconds !== undefined && seconds > 0
            ? `${user.name} can sign in again from ${formatDateTime(new Date(Date.now() + seconds * 1000))}.`
            : null}
      </p>
      <DialogActions onCancel={onCancel}>
        <Button type="submit" variant="danger" isLoading={isSubmitting}>
          {isSubmitting ? "Banning…" : `Ban ${user.name}`}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Bans a user: their sessions end at once and they cannot sign in until the ban ends or is lifted. */
export function BanUserDialog({ user, open, onOpenChange, fallbackFocus }: UserDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Ban ${user.name}?`}
      description="Every session they have ends at once, and they cannot sign in until the ban ends or an admin lifts it."
      fallbackFocus={fallbackFocus}
    >
      {open ? <BanForm user={user} onCancel={() => onOpenChange(false)} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}
