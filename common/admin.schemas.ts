import { z } from "zod";
import { emailSchema, idSchema, passwordSchema, usernameSchema } from "./account.schemas";
import { displayNameSchemaWith } from "./display-name";
import { ADMIN_DEFAULT_PAGE_SIZE, ADMIN_PAGE_SIZES } from "./admin-limits";
import { requiredReasonSchema } from "./reason.schemas";
import type { SubscriptionStatus } from "./billing.schemas";

/** The platform-admin console's contract: the users and organizations lists, a user's and an organization's page, the admin forms. */

export * from "./admin-limits";
export const ADMIN_USER_SORTS = ["created", "name", "email", "username"] as const;
export type AdminUserSort = (typeof ADMIN_USER_SORTS)[number];
export const PLATFORM_ROLE_OPTIONS = ["user", "admin"] as const;
export type PlatformRoleOption = (typeof PLATFORM_ROLE_OPTIONS)[number];
export const SEARCH_MAX_LENGTH = 100;

const searchSchema = z.string().trim().max(SEARCH_MAX_LENGTH, `Use at most ${SEARCH_MAX_LENGTH} characters`);
/** A calendar day, YYYY-MM-DD, read in UTC: "from" is its first instant, "to" its last. Years 1970 to 9998, so the day after exists. */
export const calendarDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD")
  .refine((value) => {
    const year = Number(value.slice(0, 4));
    const day = new Date(`${value}T00:00:00Z`);
    // Date.parse rolls 2023-02-29 over to March 1st: a real day reads back the same.
    return year >= 1970 && year <= 9998 && !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }, "Use a real date");
const pageSizeSchema = z.coerce
  .number()
  .int()
  .refine(
    (value) => (ADMIN_PAGE_SIZES as readonly number[]).includes(value),
    `Use a page size of ${ADMIN_PAGE_SIZES.join(", ")}`,
  )
  .default(ADMIN_DEFAULT_PAGE_SIZE);
const offsetSchema = z.coerce.number().int().min(0).max(1_000_000).default(0);

/** The users list: one search box over name, e-mail and username, filters, sorting and paging (all in the page's URL). */
export const adminUserListQuerySchema = z
  .object({
    q: searchSchema.optional(),
    role: z.enum(PLATFORM_ROLE_OPTIONS).optional(),
    status: z.enum(["active", "banned"]).optional(),
    verified: z.enum(["yes", "no"]).optional(),
    createdFrom: calendarDaySchema.optional(),
    createdTo: calendarDaySchema.optional(),
    sort: z.enum(ADMIN_USER_SORTS).default("created"),
    order: z.enum(["asc", "desc"]).default("desc"),
    limit: pageSizeSchema,
    offset: offsetSchema,
  })
  .refine((query) => !query.createdFrom || !query.createdTo || query.createdFrom <= query.createdTo, {
    message: "The start date must be on or before the end date",
    path: ["createdTo"],
  });
export type AdminUserListQuery = z.infer<typeof adminUserListQuerySchema>;

/** A user as the console lists them. `banned` is the ban in force now: a ban whose expiry has passed no longer counts. */
export type AdminUserListItem = {
  id: string;
  name: string;
  email: string;
  username: string | null;
  image: string | null;
  role: string;
  /** The platform role or a configured administrator id: whether this user is a platform admin. */
  isPlatformAdmin: boolean;
  emailVerified: boolean;
  banned: boolean;
  banReason: string | null;
  banExpires: string | null;
  createdAt: string;
};
/**
 * `total` is exact, unless `totalIsLowerBound`: a search of three characters or more on PostgreSQL is not counted
 * past its page, and when more matches follow, `total` is the page's end plus one, "at least" (docs/performance.md).
 */
export type AdminUserList = {
  users: AdminUserListItem[];
  total: number;
  totalIsLowerBound: boolean;
  limit: number;
  offset: number;
};

export type AdminSignInMethod = { providerId: string; email: string | null; createdAt: string };
export type AdminUserOrganization = { id: string; name: string; slug: string; role: string; joinedAt: string };
export type AdminUserDetail = {
  user: AdminUserListItem & { displayUsername: string | null; updatedAt: string };
  signInMethods: AdminSignInMethod[];
  organizations: AdminUserOrganization[];
  /** The user's second factors: TOTP turned on, and how many passkeys (the console offers their reset). */
  secondFactors: AdminSecondFactors;
};
export type AdminSecondFactors = { totp: boolean; passkeys: number };

export const adminOrganizationListQuerySchema = z.object({
  q: searchSchema.optional(),
  limit: pageSizeSchema,
  offset: offsetSchema,
});
export type AdminOrganizationListQuery = z.infer<typeof adminOrganizationListQuerySchema>;
export type AdminOrganizationListItem = {
  id: string;
  name: string;
  slug: string;
  createdAt: string;
  memberCount: number;
  plan: { key: string; name: string };
  status: SubscriptionStatus | null;
};
export type AdminOrganizationList = {
  organizations: AdminOrganizationListItem[];
  total: number;
  limit: number;
  offset: number;
};

export type AdminOrganizationDetail = {
  organization: { id: string; name: string; slug: string; logo: string | null; createdAt: string };
  members: Array<{ id: string; userId: string; name: string; email: string; role: string; joinedAt: string }>;
  teams: Array<{ id: string; name: string; memberCount: number; createdAt: string }>;
  invitations: Array<{
    id: string;
    email: string;
    role: string;
    expiresAt: string;
    inviter: { id: string; name: string } | null;
  }>;
};

export const adminUserParamsSchema = z.object({ userId: idSchema });
export const adminOrganizationParamsSchema = z.object({ organizationId: idSchema });

export { REASON_MAX_LENGTH, reasonSchema, requiredReasonSchema } from "./reason.schemas";

/**
 * Create a user: a password, or an invitation by mail to set one. The body of better-auth's
 * `/admin/create-user` (`{ email, name, role, password?, data: { username? } }`) is built from it.
 */
export const createUserSchema = z
  .object({
    // An admin names someone else: not "your name".
    name: displayNameSchemaWith("Enter the person's name"),
    email: emailSchema,
    username: z.union([z.literal(""), usernameSchema]).optional(),
    role: z.enum(PLATFORM_ROLE_OPTIONS),
    passwordMode: z.enum(["set", "invite"]),
    password: z.string().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.passwordMode !== "set") return;
    const result = passwordSchema.safeParse(value.password ?? "");
    if (!result.success)
      ctx.addIssue({
        code: "custom",
        path: ["password"],
        message: result.error.issues[0]?.message ?? "Enter a password",
      });
  });
export type CreateUserInput = z.infer<typeof createUserSchema>;

/** The one reading of a user's ban: a ban whose expiry has passed no longer counts (better-auth lifts it at the next sign-in). */
export function isBannedNow(
  user: { banned?: boolean | number | null; banExpires?: Date | string | null },
  now = new Date(),
): boolean {
  return Boolean(user.banned) && (user.banExpires == null || new Date(user.banExpires).getTime() > now.getTime());
}

/** Ban presets: the expiry of a ban as the console offers it; "date" takes a day, "permanent" never expires. */
export const BAN_DURATIONS = ["1h", "1d", "7d", "date", "permanent"] as const;
export type BanDuration = (typeof BAN_DURATIONS)[number];
export const BAN_DURATION_SECONDS: Record<Exclude<BanDuration, "date" | "permanent">, number> = {
  "1h": 3600,
  "1d": 86_400,
  "7d": 604_800,
};

export const banUserSchema = z
  .object({
    reason: requiredReasonSchema,
    duration: z.enum(BAN_DURATIONS),
    until: z.union([z.literal(""), calendarDaySchema]).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.duration !== "date") return;
    if (!value.until) ctx.addIssue({ code: "custom", path: ["until"], message: "Choose the day the ban ends" });
    else if (Date.parse(`${value.until}T00:00:00Z`) <= Date.now())
      ctx.addIssue({ code: "custom", path: ["until"], message: "Choose a day in the future" });
  });
export type BanUserInput = z.infer<typeof banUserSchema>;

/** The reason better-auth's `/admin/impersonate-user` requires here, alongside `userId`. */
export const impersonateUserSchema = z.object({ reason: requiredReasonSchema });
export type ImpersonateUserInput = z.infer<typeof impersonateUserSchema>;

// `bannedUserMessage` / `banExpiryOf` live in a zod-free module the web app loads on every page.
export { banExpiryOf, bannedUserMessage } from "./ban-message";

const NAME_THE_OWNER = "Enter the new owner's e-mail";
/** Give an organization a new owner (the console's recovery when nobody can manage it): an existing user, by e-mail. */
export const assignOwnerSchema = z.object({
  email: z.string({ error: NAME_THE_OWNER }).trim().min(1, NAME_THE_OWNER).pipe(emailSchema),
  reason: requiredReasonSchema,
});
export type AssignOwnerInput = z.infer<typeof assignOwnerSchema>;

/** `POST /api/admin/users/{id}/two-factor/reset`: a locked-out user's second factors removed, with the reason. */
export const resetSecondFactorsSchema = z.object({ reason: requiredReasonSchema });
export type ResetSecondFactorsInput = z.infer<typeof resetSecondFactorsSchema>;
/** What the reset removed, and how many sessions it signed out. */
export type SecondFactorsReset = AdminSecondFactors & { sessionsRevoked: number };
