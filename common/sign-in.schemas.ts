import * as z from "zod/mini";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from "./account-limits";

// zod/mini rather than zod classic: this is the only schema the sign-in page needs, and the first page most
// people load should not carry zod classic (about 37 KB gzipped). Same rules and messages as the other forms.

/** One field takes an e-mail or a username: an at-sign decides which. */
export const signInSchema = z.object({
  identifier: z
    .string()
    .check(z.trim(), z.minLength(1, "Enter your e-mail or username"), z.maxLength(EMAIL_MAX_LENGTH, `Use at most ${EMAIL_MAX_LENGTH} characters`)),
  password: z.string().check(z.maxLength(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters`), z.minLength(1, "Enter your password")),
  rememberMe: z.optional(z.boolean()),
});
export type SignInInput = z.infer<typeof signInSchema>;
