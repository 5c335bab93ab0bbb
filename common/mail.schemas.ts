import { z } from "zod";

/** The dev mailbox's filter: `?to=` an address (compared lower-cased), at most `limit` mails, newest first. */
export const listDevMailQuerySchema = z.object({
  to: z.string().trim().toLowerCase().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListDevMailQuery = z.infer<typeof listDevMailQuerySchema>;

/** One mail as the dev mailbox lists it. */
export type DevMail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };
