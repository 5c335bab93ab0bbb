import { z } from "zod";
import { ORGANIZATION_ROLES } from "./permissions";

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const organizationNameSchema = z.string().trim().min(1, "Enter a name").max(100, "Use at most 100 characters");
export const slugSchema = z
  .string()
  .trim()
  .min(2, "Use at least 2 characters")
  .max(48, "Use at most 48 characters")
  .regex(SLUG_PATTERN, "Use lower-case letters, digits and single dashes");
const logoSchema = z.union([z.literal(""), z.url("Enter a full URL, starting with https://")]).optional();

export const createOrganizationSchema = z.object({ name: organizationNameSchema, slug: slugSchema, logo: logoSchema });
export type CreateOrganizationInput = z.infer<typeof createOrganizationSchema>;

export const updateOrganizationSchema = z.object({
  name: organizationNameSchema,
  slug: slugSchema,
  logo: logoSchema,
  metadata: z.string().refine((value) => {
    if (!value.trim()) return true;
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  }, 'Enter a JSON object, e.g. {"plan": "pro"}'),
});

export const inviteMemberSchema = z.object({
  email: z.string().trim().min(1, "Enter an e-mail address").pipe(z.email("Enter a valid e-mail address")),
  role: z.enum(ORGANIZATION_ROLES),
  teamId: z.string().optional(),
});

export const teamNameSchema = z.object({ name: z.string().trim().min(1, "Enter a team name").max(100, "Use at most 100 characters") });

// Response shapes of the app's own organization endpoints, read by the web app.

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
