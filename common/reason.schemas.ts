import { z } from "zod";

/** The longest reason an admin may give for a change they make (a ban, an impersonation, a refund…). */
export const REASON_MAX_LENGTH = 500;

const SAY_WHY = "Say why, for the audit log";
export const reasonSchema = z.string().trim().max(REASON_MAX_LENGTH, `Use at most ${REASON_MAX_LENGTH} characters`);
/** Why an admin makes a change (a ban, an impersonation, an operator's billing change): required, for the audit log. */
export const requiredReasonSchema = z
  .string({ error: SAY_WHY })
  .trim()
  .min(1, SAY_WHY)
  .max(REASON_MAX_LENGTH, `Use at most ${REASON_MAX_LENGTH} characters`);
