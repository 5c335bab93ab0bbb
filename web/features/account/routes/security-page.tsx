import { QRCodeSVG } from "qrcode.react";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { totpCodeSchema, twoFactorPasswordSchema } from "../../../../common/two-factor.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/text-field";
import { toast } from "../../../components/ui/toast";
import { useZodForm } from "../../../lib/form";
import {
  codeServerErrors,
  passwordServerErrors,
  totpKeyOf,
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRegenerateBackupCodes,
} from "../api/two-factor";

type Enrolment = { totpURI: string; backupCodes: string[] };

/**
 * Account › Security: the second factor (an authenticator app, with backup codes). Off: a password starts the
 * enrolment. Enrolling: the QR code and the key, then a code confirms it. On: new backup codes, or turn it off.
 * Backup codes are shown once, right after they are made.
 */
/**
 * `required`: an organization's policy sent the person here (web/lib/two-factor-required.ts); `next`, already checked
 * to be a path of this app, is where they were, offered once the factor is on.
 */
export function SecurityPage({
  twoFactorEnabled,
  required = false,
  next,
}: {
  twoFactorEnabled: boolean;
  required?: boolean;
  next?: string;
}) {
  return (
    <div className="space-y-4">
      {required && !twoFactorEnabled && (
        <Alert tone="info" title="An organization you belong to requires a second factor">
          Turn on an authenticator app below, or add a passkey in{" "}
          <Link to="/account/sign-in-methods" className="underline">
            Sign-in methods
          </Link>
          ; then go back to where you were.
        </Alert>
      )}
      {next && twoFactorEnabled && (
        <Alert tone="success" title="Your second factor is on">
          <Link to={next} className="underline">
            Go back to where you were
          </Link>
        </Alert>
      )}
      <SecuritySteps twoFactorEnabled={twoFactorEnabled} />
    </div>
  );
}

function SecuritySteps({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  // Each step replaces the card that had focus: its title takes focus, so keyboard and screen-reader users follow.
  const titleRef = useRef<HTMLHeadingElement>(null);
  const step = shownCodes ? "codes" : enrolment && !twoFactorEnabled ? "enrolling" : twoFactorEnabled ? "on" : "off";
  const previousStep = useRef(step);
  useEffect(() => {
    if (previousStep.current !== step) titleRef.current?.focus();
    previousStep.current = step;
  }, [step]);

  if (step === "codes" && shownCodes)
    return <BackupCodesCard codes={shownCodes} titleRef={titleRef} onDone={() => setShownCodes(null)} />;
  if (step === "enrolling" && enrolment)
    return (
      <EnrolCard
        enrolment={enrolment}
        titleRef={titleRef}
        onConfirmed={() => {
          setShownCodes(enrolment.backupCodes);
          setEnrolment(null);
        }}
        onCancel={() => setEnrolment(null)}
      />
    );
  if (step === "on") return <ManageCard titleRef={titleRef} onNewCodes={setShownCodes} />;
  return <TurnOnCard titleRef={titleRef} onStarted={setEnrolment} />;
}

type TitleRef = { titleRef: React.RefObject<HTMLHeadingElement | null> };

function TurnOnCard({ titleRef, onStarted }: TitleRef & { onStarted: (enrolment: Enrolment) => void }) {
  const enable = useEnableTwoFactor();
  const form = useZodForm(twoFactorPasswordSchema, {
    defaultValues: { password: "" },
    serverErrors: passwordServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async ({ password }) => onStarted(await enable.mutateAsync({ password })));

  return (
    <Card>
      <CardHeader
        title="Two-factor authentication"
        titleRef={titleRef}
        action={<Badge>Off</Badge>}
        description="Ask for a code from an authenticator app (such as 1Password, Google Authenticator or Authy) after your password when you sign in. Someone who learns your password still cannot get in."
      />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormErrorAlert message={form.formError} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          description="To set it up, confirm it is you."
          {...form.field("password")}
        />
        <div className="flex justify-end">
          <Button type="submit" isLoading={isSubmitting}>
            {isSubmitting ? "Setting up…" : "Set up"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function EnrolCard({
  enrolment,
  titleRef,
  onConfirmed,
  onCancel,
}: TitleRef & { enrolment: Enrolment; onConfirmed: () => void; onCancel: () => void }) {
  const confirm = useConfirmTwoFactor();
  const form = useZodForm(totpCodeSchema, { defaultValues: { code: "" }, serverErrors: codeServerErrors });
  const isSubmitting = form.formState.isSubmitting;
  const key = totpKeyOf(enrolment.totpURI);
  const onSubmit = form.submit(async ({ code }) => {
    await confirm.mutateAsync({ code });
    onConfirmed();
  });

  return (
    <Card>
      <CardHeader
        title="Set up your authenticator app"
        titleRef={titleRef}
        description="Two-factor authentication turns on once you enter a code from the app."
      />
      <ol className="space-y-6 text-sm">
        <li className="space-y-3">
          <p className="font-medium">1. Scan this QR code with your authenticator app.</p>
          <div
            role="img"
            aria-label="QR code for your authenticator app"
            className="w-fit rounded-lg bg-white p-3 ring-1 ring-zinc-200"
          >
            <QRCodeSVG value={enrolment.totpURI} size={176} aria-hidden />
          </div>
        </li>
        <li className="space-y-2">
          <p className="font-medium">Or type this key into the app.</p>
          <div className="flex flex-wrap items-center gap-2">
            <code
              aria-label="Setup key"
              className="rounded-md bg-zinc-100 px-2 py-1 font-mono text-sm break-all dark:bg-zinc-800"
            >
              {key}
            </code>
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={() => void copyText(key.replace(/\s+/g, ""), "Key copied")}
            >
              Copy key
            </Button>
          </div>
        </li>
        <li>
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <p className="font-medium">2. Enter the 6-digit code the app shows.</p>
            <FormErrorAlert message={form.formError} />
            <TextField
              label="Code"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={9}
              className="max-w-48"
              {...form.field("code")}
            />
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="ghost" onClick={onCancel}>
                Cancel
              </Button>
              <Button type="submit" isLoading={isSubmitting}>
                {isSubmitting ? "Checking…" : "Turn on"}
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </Card>
  );
}

function BackupCodesCard({ codes, titleRef, onDone }: TitleRef & { codes: string[]; onDone: () => void }) {
  const text = codes.join("\n");
  return (
    <Card>
      <CardHeader
        title="Save your backup codes"
        titleRef={titleRef}
        description="If you lose your phone, each of these codes signs you in once instead of a code from the app. Keep them somewhere safe: they are shown only now."
      />
      <ul
        aria-label="Backup codes"
        className="grid grid-cols-1 gap-2 rounded-lg bg-zinc-50 p-4 font-mono text-sm min-[400px]:grid-cols-2 dark:bg-zinc-800/60"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={() => void copyText(text, "Backup codes copied")}>
          Copy
        </Button>
        <Button type="button" variant="secondary" onClick={() => downloadText(text, "atrium-backup-codes.txt")}>
          Download
        </Button>
        <Button type="button" onClick={onDone}>
          I saved them
        </Button>
      </div>
    </Card>
  );
}

function ManageCard({ titleRef, onNewCodes }: TitleRef & { onNewCodes: (codes: string[]) => void }) {
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Two-factor authentication"
          titleRef={titleRef}
          action={<Badge tone="success">On</Badge>}
          description="When you sign in with your password, Atrium also asks for a code from your authenticator app, or one of your backup codes."
        />
        <RegenerateCodesForm onNewCodes={onNewCodes} />
      </Card>
      <TurnOffCard />
    </div>
  );
}

function RegenerateCodesForm({ onNewCodes }: { onNewCodes: (codes: string[]) => void }) {
  const regenerate = useRegenerateBackupCodes();
  const form = useZodForm(twoFactorPasswordSchema, {
    defaultValues: { password: "" },
    serverErrors: passwordServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async ({ password }) =>
    onNewCodes((await regenerate.mutateAsync({ password })).backupCodes),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 border-t border-zinc-200 pt-5 dark:border-zinc-800">
      <h3 className="text-sm font-semibold">Backup codes</h3>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">
        Used them up, or lost them? New codes replace the old ones, which stop working.
      </p>
      <FormErrorAlert message={form.formError} />
      <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
      <div className="flex justify-end">
        <Button type="submit" variant="secondary" isLoading={isSubmitting}>
          {isSubmitting ? "Making new codes…" : "Make new backup codes"}
        </Button>
      </div>
    </form>
  );
}

function TurnOffCard() {
  const disable = useDisableTwoFactor();
  const form = useZodForm(twoFactorPasswordSchema, {
    defaultValues: { password: "" },
    serverErrors: passwordServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async ({ password }) => {
    await disable.mutateAsync({ password });
  });
  return (
    <Card>
      <CardHeader
        title="Turn off two-factor authentication"
        description="Your password alone will sign you in again. Your authenticator app's entry and your backup codes stop working."
      />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Alert tone="info">Without a second factor, anyone who learns your password can sign in.</Alert>
        <FormErrorAlert message={form.formError} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
        <div className="flex justify-end">
          <Button type="submit" variant="danger" isLoading={isSubmitting}>
            {isSubmitting ? "Turning off…" : "Turn off"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

async function copyText(text: string, done: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(done);
  } catch {
    toast.error("Could not copy. Select the text and copy it yourself.");
  }
}

function downloadText(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}
