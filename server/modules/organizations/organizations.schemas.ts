import { z } from "zod";
import { idSchema } from "../../../common/account.schemas";

/** Organization metadata limits: a map (or its JSON string) of at most 16 KB and 10 levels. */
export const METADATA_MAX_BYTES = 16 * 1024;
export const METADATA_MAX_DEPTH = 10;

export const listMembersQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ListMembersQuery = z.infer<typeof listMembersQuerySchema>;

export const organizationParamsSchema = z.object({ organizationId: idSchema });
export const invitationParamsSchema = z.object({ invitationId: idSchema });

export type { InvitationState, MemberList, MemberListItem, TeamWithMembers } from "../../../common/organization.schemas";
