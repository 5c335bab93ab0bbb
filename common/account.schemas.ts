import { z } from "zod";
import { displayNameSchemaWith } from "./display-name";
import { platformRoles, type PlatformRole } from "./permissions";
import {
  EMAIL_MAX_LENGTH,
  ID_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TEXT_MAX_LENGTH,
  TOKEN_MAX_LENGTH,
  URL_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from "./account-limits";

// The limits and the sign-in schema live in zod-free modules, so the sign-in page loads no zod.
export * from "./account-limits";
export { isEmailIdentifier, signInSchema, type SignInInput } from "./sign-in.schemas";

const atMost = (max: number) => `Use at most ${max} characters`;

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN_LENGTH, `Use at least ${USERNAME_MIN_LENGTH} characters`)
  .max(USERNAME_MAX_LENGTH, atMost(USERNAME_MAX_LENGTH))
  .regex(USERNAME_PATTERN, "Use only letters, digits, dots and underscores");

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, atMost(PASSWORD_MAX_LENGTH));

/** A password being checked rather than chosen: no minimum, so a wrong short one is answered as wrong. */
export const currentPasswordSchema = z.string().max(PASSWORD_MAX_LENGTH, atMost(PASSWORD_MAX_LENGTH));

export const emailSchema = z
  .string()
  .trim()
  .min(1, "Enter your e-mail")
  .max(EMAIL_MAX_LENGTH, atMost(EMAIL_MAX_LENGTH))
  .pipe(z.email("Enter a valid e-mail address"));

/** A person's name: the display-name rule (common/display-name.ts). */
export const nameSchema = displayNameSchemaWith("Enter your name");

/** The case-preserving form of a username, shown to people; free text (better-auth checks only the username). */
export const displayUsernameSchema = z.string().max(NAME_MAX_LENGTH, atMost(NAME_MAX_LENGTH));

/**
 * An absolute https URL: what an avatar or a logo may point at (never javascript: or a data: blob, nor http:, which
 * the pages' Content-Security-Policy would block from showing: `img-src https:`).
 */
export const httpsUrlSchema = z
  .url({ protocol: /^https$/, error: "Enter a full URL, starting with https://" })
  .max(URL_MAX_LENGTH, atMost(URL_MAX_LENGTH));

/** A picture URL, or "" for none. */
export const imageUrlSchema = z.union([z.literal(""), httpsUrlSchema], {
  error: "Enter a full URL, starting with https://",
});

/** Where better-auth sends the browser next: a path or an absolute URL, whose origin better-auth checks itself. */
export const callbackUrlSchema = z.string().max(URL_MAX_LENGTH, atMost(URL_MAX_LENGTH));

/**
 * A field as a request sends it: the forms trim before they count, a request may not, so the raw value is
 * bounded too (a name padded with a megabyte of spaces would otherwise pass and be stored).
 */
export const asSent = (schema: z.ZodType<string, string>, maxLength: number) =>
  z.string().max(maxLength, atMost(maxLength)).pipe(schema);

/** A query field naming a column (better-auth hands sort and filter fields to its adapter unchecked): one of `columns`. */
export const columnSchema = (columns: [string, ...string[]]) =>
  z.enum(columns, { error: `Use one of: ${columns.join(", ")}` }).optional();

/** A record id: whether it exists is the endpoint's to answer. */
export const idSchema = z.string().max(ID_MAX_LENGTH, atMost(ID_MAX_LENGTH));

/** A session, reset, verification or provider token: whether it is valid is the endpoint's to answer. */
export const tokenSchema = z.string().max(TOKEN_MAX_LENGTH, atMost(TOKEN_MAX_LENGTH));

/** Free text no form bounds otherwise, such as a ban reason. */
export const textSchema = z.string().max(TEXT_MAX_LENGTH, atMost(TEXT_MAX_LENGTH));

/** A ban lasts whole seconds, at most a century (0 means until lifted); longer would overflow the expiry date. */
export const BAN_MAX_SECONDS = 100 * 365 * 24 * 60 * 60;
export const banDurationSchema = z
  .number()
  .int("Use whole seconds")
  .min(0, "Use 0 (until lifted) or more seconds")
  .max(BAN_MAX_SECONDS, `Use at most ${BAN_MAX_SECONDS} seconds`);

const PLATFORM_ROLES = Object.keys(platformRoles) as [PlatformRole, ...PlatformRole[]];
export const platformRoleSchema = z.enum(PLATFORM_ROLES, { error: `Use one of: ${PLATFORM_ROLES.join(", ")}` });
/** One platform role, or several as a list. */
export const platformRolesSchema = z.union(
  [platformRoleSchema, z.array(platformRoleSchema).min(1).max(PLATFORM_ROLES.length)],
  {
    error: `Use one or more of: ${PLATFORM_ROLES.join(", ")}`,
  },
);

const optionalUsername = z.union([z.literal(""), usernameSchema]).optional();

export const signUpSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  username: optionalUsername,
  password: passwordSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const profileSchema = z.object({
  name: nameSchema,
  image: imageUrlSchema.optional(),
  username: optionalUsername,
});
export type ProfileInput = z.infer<typeof profileSchema>;

/** The new address of a change of e-mail: the sign-up form's rule (the server checks /change-email with it too). */
export const changeEmailSchema = z.object({ newEmail: emailSchema });
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: currentPasswordSchema.min(1, "Enter your current password"),
    newPassword: passwordSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match",
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });

export const resetPasswordSchema = z
  .object({ newPassword: passwordSchema, confirmPassword: z.string() })
  .refine((value) => value.newPassword === value.confirmPassword, {
    path: ["confirmPassword"],
    message: "The passwords do not match",
  });

/** A code of an authenticator app: six digits. */
export const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app");

/**
 * A passkey's answer to the server's challenge (WebAuthn's AuthenticationResponseJSON, as the browser gives it): the
 * credential's id is read here, the rest is checked by the passkey plugin.
 */
export const passkeyAssertionSchema = z.looseObject({
  id: z.string().min(1, "The passkey's answer has no id").max(1024),
  response: z.looseObject({}),
});

/**
 * The re-check of `POST /api/account/reauthenticate`: the account's password, a code of its authenticator app, or a
 * passkey's answer to the challenge of `GET /api/auth/passkey/generate-authenticate-options`.
 */
export const reauthenticateSchema = z.union([
  z.strictObject({ password: currentPasswordSchema.min(1, "Enter your password") }),
  z.strictObject({ code: totpCodeSchema }),
  z.strictObject({ passkey: passkeyAssertionSchema }),
]);
export type ReauthenticateInput = z.infer<typeof reauthenticateSchema>;

/** The name a person gives a passkey to tell their passkeys apart ("Work laptop"): the display-name rule. */
export const passkeyNameSchema = displayNameSchemaWith("Enter a name for the passkey");

/** The form that names a passkey, when adding one or renaming it. */
export const passkeyNameFormSchema = z.object({ name: passkeyNameSchema });
