import { z } from "zod";

/** Limits shared by the server's better-auth options and every form in the web app. */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const USERNAME_PATTERN = /^[a-zA-Z0-9_.]+$/;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 100;

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN_LENGTH, `Use at least ${USERNAME_MIN_LENGTH} characters`)
  .max(USERNAME_MAX_LENGTH, `Use at most ${USERNAME_MAX_LENGTH} characters`)
  .regex(USERNAME_PATTERN, "Use only letters, digits, dots and underscores");

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters`);

export const emailSchema = z.string().trim().min(1, "Enter your e-mail").pipe(z.email("Enter a valid e-mail address"));

export const nameSchema = z.string().trim().min(1, "Enter your name").max(NAME_MAX_LENGTH, `Use at most ${NAME_MAX_LENGTH} characters`);

const optionalUsername = z.union([z.literal(""), usernameSchema]).optional();

export const signUpSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  username: optionalUsername,
  password: passwordSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

/** One field takes an e-mail or a username: an at-sign decides which. */
export const signInSchema = z.object({
  identifier: z.string().trim().min(1, "Enter your e-mail or username"),
  password: z.string().min(1, "Enter your password"),
  rememberMe: z.boolean().optional(),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const profileSchema = z.object({
  name: nameSchema,
  image: z.union([z.literal(""), z.url("Enter a full URL, starting with https://")]).optional(),
  username: optionalUsername,
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password"),
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

export function isEmailIdentifier(identifier: string): boolean {
  return identifier.includes("@");
}
