import { sql, type Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { SSO_ERROR_CODES } from "../../../common/error-codes";
import type { JoinableOrganization } from "../../../common/sso.schemas";
import { shareTransactions } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { recordAuditEvent, type AuditContext } from "../audit";
import { insertMember, lockOrganization } from "../organizations";
import type { SsoLimits } from "./sso.service";
import { domainOf } from "./sso.service";

/**
 * Joining by verified domain (docs/sso.md): the organizations a person may join without an invitation, because their
 * verified e-mail address is on a domain one of its SSO providers verified and the organization allows it
 * (`allowDomainJoin`). The same question is asked again inside the join's transaction.
 */
function joinableQuery(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom("user")
    .innerJoin("ssoProvider", (join) => join.on("ssoProvider.domainVerified", "=", 1))
    .innerJoin("organization", "organization.id", "ssoProvider.organizationId")
    .where("user.id", "=", userId)
    .where("user.emailVerified", "=", 1)
    .where("organization.allowDomainJoin", "=", 1)
    .where(sql<boolean>`lower("user"."email") like ('%@' || "ssoProvider"."domain")`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("member")
            .select("member.id")
            .whereRef("member.organizationId", "=", "organization.id")
            .whereRef("member.userId", "=", "user.id"),
        ),
      ),
    )
    .select(["organization.id", "organization.name", "organization.slug", "ssoProvider.domain"])
    .orderBy("organization.name");
}

export async function listJoinableOrganizations(db: Kysely<Database>, userId: string): Promise<JoinableOrganization[]> {
  return joinableQuery(db, userId).execute();
}

/**
 * Joins an organization by verified domain as a member (its default role), within the plan's seats, with its audit
 * entry, in one transaction under the organization's lock: 409 for a member, 403 when the organization does not
 * (or no longer) offers it to this person.
 */
export async function joinByVerifiedDomain(
  db: Kysely<Database>,
  limits: SsoLimits,
  input: { userId: string; email: string; organizationId: string; audit: AuditContext },
): Promise<JoinableOrganization> {
  // The plan check reads through this transaction (as provisionSsoMember's).
  return shareTransactions(db)
    .transaction()
    .execute(async (trx) => {
      await lockOrganization(trx, input.organizationId);
      const member = await trx
        .selectFrom("member")
        .select("id")
        .where("organizationId", "=", input.organizationId)
        .where("userId", "=", input.userId)
        .executeTakeFirst();
      if (member) throw DomainError.of(SSO_ERROR_CODES.SSO_ALREADY_A_MEMBER);
      const joinable = await joinableQuery(trx, input.userId)
        .where("organization.id", "=", input.organizationId)
        .executeTakeFirst();
      if (!joinable || domainOf(input.email) !== joinable.domain)
        throw DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_JOIN_NOT_OFFERED);
      await limits.assertWithinLimit(input.organizationId, "members", 1);
      await insertMember(trx, { organizationId: input.organizationId, userId: input.userId, role: "member" });
      await recordAuditEvent(trx, input.audit, {
        action: "member.added",
        target: { type: "user", id: input.userId, label: input.email },
        organization: { id: input.organizationId, name: joinable.name },
        details: { role: "member", domain: joinable.domain },
      });
      return joinable;
    });
}
