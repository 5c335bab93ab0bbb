import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, deleteUser } from "better-auth/api";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { ACCOUNT_ERROR_CODES } from "../../../common/error-codes";
import type { AccountDeletionPreview, OrganizationSummary } from "../../../common/organization.schemas";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { CLIENT_IP_HEADER } from "../../http/middleware/client-ip";
import {
  auditContextOf,
  auditedEndpoint,
  matchesPluginEndpoints,
  recordAuditEvent,
  type AuditedSession,
} from "../audit";
import * as repository from "./organizations.repository";

export type AccountDeletionOptions = {
  /** The app's database; better-auth's must be `shareTransactions(db)`. */
  db: Kysely<Database>;
  /**
   * Ends an organization's subscription at the billing provider before the organization goes (the billing
   * module's `releaseOrganization`); throws, and nothing is deleted, when the provider cannot do it now.
   */
  releaseOrganization: (organizationId: string) => Promise<void>;
};

const isOwner = (role: string) => role.split(",").some((part) => part.trim() === "owner");

/**
 * What deleting this account would do to its organizations: those where it is the only member go with it;
 * those where it is the only owner of other members refuse the deletion. In the deletion's transaction, read
 * after `lockAccountOrganizations`.
 */
export async function previewAccountDeletion(db: Kysely<Database>, userId: string): Promise<AccountDeletionPreview> {
  const preview: AccountDeletionPreview = { deletedWithAccount: [], soleOwnerOf: [] };
  for (const { members, ...organization } of await repository.findOrganizationsWithMembersOf(db, userId)) {
    const others = members.filter((member) => member.userId !== userId);
    const isMyOwnership = members.some((member) => member.userId === userId && isOwner(member.role));
    if (others.length === 0) preview.deletedWithAccount.push(organization);
    else if (isMyOwnership && !others.some((member) => isOwner(member.role))) preview.soleOwnerOf.push(organization);
  }
  return preview;
}

/** Locks the rows of every organization the user belongs to, for the rest of the transaction. */
async function lockAccountOrganizations(db: Kysely<Database>, userId: string): Promise<void> {
  await repository.lockOrganizations(db, await repository.findOrganizationIdsOf(db, userId));
}

type DeletionCall = { headers?: Headers | null; context?: { session?: unknown } } | null | undefined;

/**
 * Ownership is never lost with an account: run where the user row is deleted, inside the deletion's transaction.
 * Refuses (SOLE_OWNER, listing them) while the user is the only owner of organizations with other members;
 * otherwise deletes the organizations where the user is the only member, each subscription ended at the
 * provider first, each recorded as the deletion of an organization is. The caller's session (the person, or the
 * admin removing them) is the audit entries' actor.
 */
async function releaseAccountOrganizations(options: AccountDeletionOptions, userId: string, call: DeletionCall) {
  const db = await currentDatabase(options.db);
  await lockAccountOrganizations(db, userId);
  const { deletedWithAccount, soleOwnerOf } = await previewAccountDeletion(db, userId);
  if (soleOwnerOf.length > 0) {
    throw DomainError.of(ACCOUNT_ERROR_CODES.SOLE_OWNER, soleOwnerOf);
  }
  const session = (call?.context?.session ?? null) as AuditedSession | null;
  const headers = call?.headers;
  const audit = auditContextOf(session, {
    ipAddress: headers?.get(CLIENT_IP_HEADER),
    userAgent: headers?.get("user-agent"),
  });
  for (const organization of deletedWithAccount) {
    await options.releaseOrganization(organization.id);
    await repository.deleteOrganizationRow(db, organization.id);
    await recordAuditEvent(db, audit, deletedWithAccountEntry(organization));
  }
}

function deletedWithAccountEntry(organization: OrganizationSummary) {
  return {
    action: "organization.deleted" as const,
    target: { type: "organization" as const, id: organization.id, label: organization.name },
    organization: { id: organization.id, name: organization.name },
    reason: "Deleted with the account of its only member",
  };
}

/**
 * The account deletions as a better-auth plugin: `POST /delete-user` runs in one transaction (better-auth runs it
 * statement by statement), and the admin's `/admin/remove-user` already does (the admin module's audit). Each
 * locks the user's organizations first, before it deletes sessions another transaction may be waiting to change,
 * then the user row's delete hook applies `releaseAccountOrganizations` inside that transaction.
 */
export function accountDeletion(options: AccountDeletionOptions) {
  const { db } = options;
  return {
    id: "account-deletion",
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            delete: {
              before: async (user: { id: string }, call: DeletionCall) => {
                await releaseAccountOrganizations(options, user.id, call);
              },
            },
          },
        },
      },
    }),
    hooks: {
      before: [
        auditedEndpoint({
          db,
          endpoint: deleteUser,
          lock: async (trx, _body, session) => {
            if (session) await lockAccountOrganizations(trx, session.user.id);
          },
          // The account's own deletion is not an organization change; the organizations it takes are recorded above.
          record: () => [],
        }),
        {
          // Runs inside the admin module's transaction for remove-user (this plugin is composed after it).
          matcher: matchesPluginEndpoints("admin", "removeUser"),
          handler: createAuthMiddleware(async (ctx) => {
            const body = ctx.body as Record<string, unknown> | undefined;
            const userId = typeof body?.userId === "string" ? body.userId : undefined;
            if (userId) await lockAccountOrganizations(await currentDatabase(db), userId);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
