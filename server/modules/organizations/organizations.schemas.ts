import { z } from "zod";

/** Organization metadata limits: a map (or its JSON string) of at most 16 KB and 10 levels. */
export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_DEPTH = 10;

export const listMembersQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListMembersQuery = z.infer<typeof listMembersQuerySchema>;

export type MemberListItem = {
  id: string;
  userId: string;
  role: string;
  createdAt: string;
  user: { id: string; name: string; email: string; image: string | null; username: string | null };
  teams: Array<{ id: string; name: string }>;
};

export type MemberList = { members: MemberListItem[]; total: number; limit: number; offset: number };

/** What an invitation link can tell anyone who holds it: only its state, nothing about the organization. */
export type InvitationState = "pending" | "accepted" | "rejected" | "canceled" | "expired";

export type TeamWithMembers = {
  id: string;
  name: string;
  createdAt: string;
  members: Array<{ userId: string; name: string; email: string; image: string | null }>;
};
