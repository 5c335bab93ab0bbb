import type { Kysely } from "kysely";
import { isBannedNow, type AdminOrganizationListQuery, type AdminUserListQuery } from "../../../common/admin.schemas";
import { isPlatformAdmin } from "../../../common/permissions";
import { toIsoString, type Dialect } from "../../db/database";
import type { Database } from "../../db/schema";
import { recordAuditEvent } from "../audit";
import { isListedInAdminEmails } from "./admin-emails";
import * as repository from "./admin.repository";
import type {
  AdminOrganizationDetail,
  AdminOrganizationList,
  AdminUserDetail,
  AdminUserList,
  AdminUserListItem,
  PlansOf,
} from "./admin.schemas";

function toListItem(row: repository.UserRow, adminUserIds: readonly string[], now: Date): AdminUserListItem {
  const banned = isBannedNow(row, now);
  const role = row.role ?? "user";
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    image: row.image,
    role,
    isPlatformAdmin: isPlatformAdmin({ id: row.id, role }, adminUserIds),
    emailVerified: Boolean(row.emailVerified),
    banned,
    banReason: banned ? row.banReason : null,
    banExpires: banned ? toIsoString(row.banExpires) : null,
    createdAt: toIsoString(row.createdAt) ?? "",
  };
}

/** One page of the users list. */
export async function listUsers(
  db: Kysely<Database>,
  dialect: Dialect,
  adminUserIds: readonly string[],
  query: AdminUserListQuery,
  now = new Date(),
): Promise<AdminUserList> {
  const { rows, total, totalIsLowerBound = false } = await repository.findUsers(db, dialect, query, now);
  return {
    users: rows.map((row) => toListItem(row, adminUserIds, now)),
    total,
    totalIsLowerBound,
    limit: query.limit,
    offset: query.offset,
  };
}

/** A user's page: the profile, the ways they sign in, their organizations; undefined when there is no such user. */
export async function getUserDetail(
  db: Kysely<Database>,
  adminUserIds: readonly string[],
  userId: string,
): Promise<AdminUserDetail | undefined> {
  const row = await repository.findUser(db, userId);
  if (!row) return undefined;
  const [signInMethods, organizations, secondFactors] = await Promise.all([
    repository.findSignInMethods(db, userId),
    repository.findUserOrganizations(db, userId),
    repository.findSecondFactors(db, userId),
  ]);
  return {
    user: {
      ...toListItem(row, adminUserIds, new Date()),
      displayUsername: row.displayUsername,
      updatedAt: toIsoString(row.updatedAt) ?? "",
    },
    signInMethods,
    organizations,
    secondFactors,
  };
}

/** One page of the organizations list, with each one's plan. */
export async function listOrganizations(
  db: Kysely<Database>,
  plansOf: PlansOf,
  query: AdminOrganizationListQuery,
): Promise<AdminOrganizationList> {
  const { rows, total } = await repository.findOrganizations(db, query);
  const plans = await plansOf(rows.map((row) => row.id));
  return {
    organizations: rows.map((row) => ({
      ...row,
      ...(plans.get(row.id) ?? { plan: { key: "free", name: "Free" }, status: null }),
    })),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}

export async function getOrganizationDetail(
  db: Kysely<Database>,
  organizationId: string,
): Promise<AdminOrganizationDetail | undefined> {
  return repository.findOrganizationDetail(db, organizationId);
}

/** The outcome of `npm run admin`, worded for the terminal. */
export type PlatformRoleChange = { email: string; from: string; to: string; changed: boolean };

/**
 * Makes a user a platform admin (`grant`) or takes it away (`revoke`), from the command line: for the first admin
 * of a deployment without ADMIN_EMAILS. The change and its audit entry ("command line" as the actor) are one
 * transaction; revoking the last platform admin is refused, as it is in the console.
 */
export async function changePlatformRoleFromCommandLine(
  db: Kysely<Database>,
  adminUserIds: readonly string[],
  input: { action: "grant" | "revoke"; email: string },
  adminEmails: readonly string[] = [],
): Promise<PlatformRoleChange> {
  const email = input.email.trim().toLowerCase();
  return db.transaction().execute(async (trx) => {
    const user = await repository.findUserByEmail(trx, email);
    if (!user) throw new Error(`No user has the e-mail ${email}.`);
    const from = user.role ?? "user";
    const others = from
      .split(",")
      .map((role) => role.trim())
      .filter((role) => role && role !== "admin" && role !== "user");
    const to = input.action === "grant" ? ["admin", ...others].join(",") : others.length ? others.join(",") : "user";
    if (to === from) return { email, from, to, changed: false };
    if (input.action === "revoke" && isListedInAdminEmails(user, adminEmails)) {
      throw new Error(`${email} is a platform admin through ADMIN_EMAILS: remove the address from that setting first.`);
    }
    await repository.lockPlatformAdmins(trx);
    if (
      input.action === "revoke" &&
      (await repository.countPlatformAdminsOtherThan(trx, user.id, adminUserIds)) === 0
    ) {
      throw new Error(`${email} is the last platform admin: grant another user first.`);
    }
    await repository.setRole(trx, user.id, to);
    await recordAuditEvent(
      trx,
      {
        actor: { type: "command_line", id: null, label: "command line" },
        impersonatorId: null,
        ipAddress: null,
        userAgent: null,
      },
      { action: "user.role_changed", target: { type: "user", id: user.id, label: user.email }, details: { from, to } },
    );
    return { email, from, to, changed: true };
  });
}
