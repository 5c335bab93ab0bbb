/** Mail templates: each returns the subject with an HTML and a plain-text body that say the same. */
export type RenderedMail = { subject: string; html: string; text: string };

const APP_NAME = "Atrium";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function layout(heading: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs
    .map((paragraph) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(paragraph)}</p>`)
    .join("");
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#6b7280">Or paste this link into your browser:<br><a href="${escapeHtml(action.url)}" style="color:#4f46e5;word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : "";
  return `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#18181b">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
<p style="margin:0 0 24px;font-weight:700;font-size:18px">${APP_NAME}</p>
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(heading)}</h1>${body}${button}
</div></body></html>`;
}

function plain(heading: string, paragraphs: string[], action?: { label: string; url: string }): string {
  return [
    heading,
    "",
    ...paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(action ? [`${action.label}: ${action.url}`, ""] : []),
    `— ${APP_NAME}`,
  ].join("\n");
}

function render(
  subject: string,
  heading: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): RenderedMail {
  return { subject, html: layout(heading, paragraphs, action), text: plain(heading, paragraphs, action) };
}

export function verificationMail(input: { name: string; url: string }): RenderedMail {
  return render(
    `Verify your e-mail address for ${APP_NAME}`,
    `Welcome, ${input.name}`,
    ["Confirm that this is your e-mail address to finish setting up your account. The link works for 1 hour."],
    { label: "Verify e-mail address", url: input.url },
  );
}

/** Sent to the address an account is changing to: opening the link makes the change. */
export function emailChangeMail(input: { name: string; from: string; to: string; url: string }): RenderedMail {
  return render(
    `Confirm your new e-mail address for ${APP_NAME}`,
    "Confirm your new e-mail address",
    [
      `Hi ${input.name}, you asked to change the e-mail address of your ${APP_NAME} account ` +
        `from ${input.from} to ${input.to}.`,
      "Your address changes when you open this link; until then it stays as it is. The link works for 1 hour.",
      "If you did not ask for this, ignore this mail: nothing changes.",
    ],
    { label: "Confirm new address", url: input.url },
  );
}

/** Sent to the address an account had, once the change took effect: that address no longer reaches the account. */
export function emailChangedMail(input: { name: string; from: string; to: string }): RenderedMail {
  return render(`Your e-mail address was changed — ${APP_NAME}`, "Your e-mail address was changed", [
    `Hi ${input.name},`,
    `The e-mail address of your ${APP_NAME} account was changed from ${input.from} to ${input.to}. ` +
      "Mail about the account, password resets included, now goes to the new address.",
    "If this was not you, contact the administrators of this Atrium right away: " +
      "this address can no longer reset the account's password.",
  ]);
}

/** Someone who signed up through a provider has no password yet: the same link sets their first one. */
/** How the account signs in today: with a password, only through providers, or not at all yet (created by an admin). */
export type SignInKind = "password" | "provider" | "none";

export function passwordResetMail(input: { name: string; url: string; signIn: SignInKind }): RenderedMail {
  if (input.signIn === "none") {
    return render(
      `Set a password for ${APP_NAME}`,
      "Set a password",
      [
        `Hi ${input.name}, an ${APP_NAME} account was created for you with this e-mail address. Choose a password to sign in; the link works for 1 hour.`,
        `After that, ask for a new link with "Forgot your password?" on the sign-in page.`,
      ],
      { label: "Choose a password", url: input.url },
    );
  }
  if (input.signIn === "provider") {
    return render(
      `Set a password for ${APP_NAME}`,
      "Set a password",
      [
        `Hi ${input.name}, someone asked to set a password for your account, which you sign in to through a provider. If it was you, choose a password; the link works for 1 hour. Your provider keeps working too.`,
        "If it was not you, ignore this mail: nothing changes.",
      ],
      { label: "Choose a password", url: input.url },
    );
  }
  return render(
    `Reset your ${APP_NAME} password`,
    "Reset your password",
    [
      `Hi ${input.name}, someone asked to reset the password of your account. If it was you, choose a new password; the link works for 1 hour.`,
      "If it was not you, ignore this mail: your password stays as it is.",
    ],
    { label: "Choose a new password", url: input.url },
  );
}

/** An invitation from a person, or, with `inviterName` null, from the organization itself (an API key sent it). */
export function invitationMail(input: {
  inviterName: string | null;
  organizationName: string;
  role: string;
  url: string;
}): RenderedMail {
  const { inviterName, organizationName } = input;
  const subject = inviterName
    ? `${inviterName} invited you to ${organizationName} on ${APP_NAME}`
    : `${organizationName} invited you to ${APP_NAME}`;
  const invited = inviterName
    ? `${inviterName} invited you to join ${organizationName}`
    : `${organizationName} invited you to join`;
  return render(
    subject,
    `Join ${organizationName}`,
    [`${invited} as ${input.role}. The invitation expires in 2 days.`],
    { label: "View invitation", url: input.url },
  );
}

export function existingAccountMail(input: { name: string; signInUrl: string; resetUrl: string }): RenderedMail {
  return render(
    `Someone tried to sign up to ${APP_NAME} with your address`,
    "You already have an account",
    [
      `Hi ${input.name}, someone tried to create a new ${APP_NAME} account with this e-mail address, which already has one.`,
      `If it was you, sign in instead. Forgot your password? Reset it at ${input.resetUrl}`,
      "If it was not you, you can ignore this mail: nothing was changed.",
    ],
    { label: "Sign in", url: input.signInUrl },
  );
}

export function unconfirmedProviderEmailMail(input: {
  name: string;
  providerName: string;
  signInUrl: string;
}): RenderedMail {
  return render(
    `Someone tried to sign in to ${APP_NAME} through ${input.providerName} with your address`,
    "Your sign-in did not go through",
    [
      `Hi ${input.name}, someone tried to sign in to ${APP_NAME} through ${input.providerName} with this e-mail address. ${input.providerName} has not confirmed that the address is theirs, so it was not connected to your account.`,
      `If it was you, sign in as you usually do, then connect ${input.providerName} in Account settings › Sign-in methods.`,
      "If it was not you, you can ignore this mail: nothing was changed.",
    ],
    { label: "Sign in", url: input.signInUrl },
  );
}

export function noticeMail(input: { name: string; subject: string; message: string }): RenderedMail {
  return render(`${input.subject} — ${APP_NAME}`, input.subject, [
    `Hi ${input.name},`,
    input.message,
    "If this was not you, reset your password and review your sessions right away.",
  ]);
}

/** A platform admin reset the account's second factors (a person locked out asked for it): what changed, what next. */
export function secondFactorsResetMail(input: { name: string; signInUrl: string }): RenderedMail {
  return render(
    `Your second factors were reset — ${APP_NAME}`,
    "Your second factors were reset",
    [
      `Hi ${input.name}, an administrator of ${APP_NAME} removed your account's second factors: the authenticator app, its backup codes and your passkeys. Every session of your account was signed out.`,
      "Sign in with your password, then set up a second factor again in Account settings › Security.",
      "If you did not ask for this, reply to this mail or contact your administrator right away.",
    ],
    { label: "Sign in", url: input.signInUrl },
  );
}

/** The app turned an organization's webhook endpoint off (it answered 410 Gone, or failed for days): to its owners. */
export function webhookDisabledMail(input: {
  name: string;
  organizationName: string;
  url: string;
  reason: "gone" | "failing";
  settingsUrl: string;
}): RenderedMail {
  const why =
    input.reason === "gone"
      ? "It answered 410 Gone, which asks us to stop sending."
      : "Every delivery to it has failed for several days.";
  return render(
    `A webhook endpoint of ${input.organizationName} was turned off — ${APP_NAME}`,
    "A webhook endpoint was turned off",
    [
      `Hi ${input.name},`,
      `We stopped sending events of ${input.organizationName} to ${input.url}. ${why}`,
      "Events are kept while it is off. Fix the endpoint, then turn it back on in the organization's webhook settings.",
    ],
    { label: "Open webhook settings", url: input.settingsUrl },
  );
}
