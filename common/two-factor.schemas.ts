import { z } from "zod";
import { currentPasswordSchema } from "./account.schemas";

/** A code as people type it: spaces (authenticator apps show "123 456") are dropped. */
const typedCode = z.string().transform((value) => value.replace(/\s+/g, ""));

/** What turning on, regenerating backup codes and turning off ask for: the account's password. */
export const twoFactorPasswordSchema = z.object({ password: currentPasswordSchema.min(1, "Enter your password") });

/** The 6 digits an authenticator app shows. */
export const totpCodeSchema = z.object({
  code: typedCode.pipe(z.string().regex(/^\d{6}$/, "Enter the 6 digits your authenticator app shows")),
});

/** One of the backup codes (better-auth's are 11 characters, "abcde-12345"). */
export const backupCodeSchema = z.object({
  code: typedCode.pipe(z.string().min(1, "Enter one of your backup codes").max(32, "That is not a backup code")),
});
