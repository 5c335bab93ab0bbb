import { z } from "zod";

export const listDevMailQuerySchema = z.object({
  to: z.string().trim().toLowerCase().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type OutgoingMail = { to: string; subject: string; html: string; text: string };

export type DevMail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };
