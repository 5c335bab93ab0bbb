import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { SCIM_ERROR_CODES } from "../../../common/error-codes";
import { rolesAllow, type OrganizationPermissions } from "../../../common/permissions";
import type { ScimTokenSecret, ScimTokenSummary } from "../../../common/scim.schemas";
import { toIsoString } from "../../db/database";
import type { Database } from "../../db/schema";
import { recordAuditEvent, type AuditContext } from "../audit";
import { findAdmittedMembership, lockOrganization } from "../organizations";
import * as repository from "./scim.repository";
import type { TokenRow } from "./scim.repository";

/** Owners and admins manage directory sync: the permission to update the organization (permissions as data). */
const MANAGE_SCIM: OrganizationPermissions = { organization: ["update"] };

/** A token's prefix tells a leaked secret's kind at a glance (and to secret scanners). */
const TOKEN_PREFIX = "atrium_scim_";

/** Only the digest is stored: a leak of the table gives no usable token. */
export const digestOf = (token: string) => createHash("sha256").update(token).digest("hex");

const newSecret = () => `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;

export function tokenSummary(row: TokenRow): ScimTokenSummary {
  return {
    id: row.id,
    name: row.name,
    createdAt: toIsoString(row.created_at) ?? "",
    lastUsedAt: toIsoString(row.last_used_at),
    revokedAt: toIsoString(row.revoked_at),
  };
}

/** Throws 403 SCIM_ADMIN_REQUIRED unless the user is an owner or admin of the organization (outsiders alike). */
export async function assertMayManageScim(db: Kysely<Database>, organizationId: string, userId: string): Promise<void> {
  const membership = await findAdmittedMembership(db, organizationId, userId);
  if (!rolesAllow((membership?.roles ?? []).join(","), MANAGE_SCIM))
    throw DomainError.of(SCIM_ERROR_CODES.SCIM_ADMIN_REQUIRED);
}

/**
 * An owner or admin creates a directory connection's token, bound to the organization; the secret is answered this
 * once. The row and its audit entry are one transaction.
 */
export async function generateToken(
  db: Kysely<Database>,
  input: { organizationId: string; name: string; userId: string; audit: AuditContext },
): Promise<ScimTokenSecret> {
  await assertMayManageScim(db, input.organizationId, input.userId);
  const secret = newSecret();
  const row = await db.transaction().execute(async (trx) => {
    await lockOrganization(trx, input.organizationId);
    const created = await repository.insertToken(trx, {
      organizationId: input.organizationId,
      name: input.name,
      tokenHash: digestOf(secret),
      createdBy: input.userId,
    });
    await recordAuditEvent(trx, input.audit, {
      action: "organization.scim_token_created",
      target: { type: "organization", id: input.organizationId },
      organization: { id: input.organizationId },
      details: { tokenId: created.id, tokenName: created.name },
    });
    return created;
  });
  return { scimToken: secret, token: tokenSummary(row) };
}

/** The organization's tokens, newest first, without their secrets. */
export async function listTokens(db: Kysely<Database>, organizationId: string): Promise<ScimTokenSummary[]> {
  return (await repository.findTokens(db, organizationId)).map(tokenSummary);
}

async function getToken(db: Kysely<Database>, organizationId: string, tokenId: string): Promise<TokenRow> {
  const token = await repository.findToken(db, organizationId, tokenId);
  if (!token) throw DomainError.of(SCIM_ERROR_CODES.SCIM_TOKEN_NOT_FOUND);
  return token;
}

/** A new secret for a token that is not revoked: the old one stops working at once. Answered this once. */
export async function rotateToken(
  db: Kysely<Database>,
  input: { organizationId: string; tokenId: string; audit: AuditContext },
): Promise<ScimTokenSecret> {
  const secret = newSecret();
  const row = await db.transaction().execute(async (trx) => {
    const token = await getToken(trx, input.organizationId, input.tokenId);
    if (token.revoked_at) throw DomainError.of(SCIM_ERROR_CODES.SCIM_TOKEN_NOT_FOUND);
    await repository.setTokenHash(trx, token.id, digestOf(secret));
    await recordAuditEvent(trx, input.audit, {
      action: "organization.scim_token_rotated",
      target: { type: "organization", id: input.organizationId },
      organization: { id: input.organizationId },
      details: { tokenId: token.id, tokenName: token.name },
    });
    return { ...token, last_used_at: null };
  });
  return { scimToken: secret, token: tokenSummary(row) };
}

/** Revokes a token: its next request answers 401. Revoking a revoked token changes (and records) nothing. */
export async function revokeToken(
  db: Kysely<Database>,
  input: { organizationId: string; tokenId: string; audit: AuditContext },
): Promise<ScimTokenSummary> {
  return db.transaction().execute(async (trx) => {
    const token = await getToken(trx, input.organizationId, input.tokenId);
    if (await repository.revokeToken(trx, token.id)) {
      await recordAuditEvent(trx, input.audit, {
        action: "organization.scim_token_revoked",
        target: { type: "organization", id: input.organizationId },
        organization: { id: input.organizationId },
        details: { tokenId: token.id, tokenName: token.name },
      });
    }
    return tokenSummary((await repository.findToken(trx, input.organizationId, token.id))!);
  });
}

/** What a SCIM request acts as: the token's organization, and its name (the audit log's actor). */
export type ScimCaller = { tokenId: string; organizationId: string; name: string };

/** How often a token's last use is written, at most: a directory's burst of requests costs one write. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** The caller of a SCIM request by its bearer token; 401 SCIM_UNAUTHORIZED for none, an unknown or a revoked one. */
export async function authenticate(db: Kysely<Database>, authorization: string | undefined): Promise<ScimCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const token =
    match && match[1]!.length <= 200 ? await repository.findActiveTokenByHash(db, digestOf(match[1]!)) : undefined;
  if (!token) throw DomainError.of(SCIM_ERROR_CODES.SCIM_UNAUTHORIZED);
  const now = new Date();
  const lastUsed = token.last_used_at ? new Date(token.last_used_at).getTime() : 0;
  if (now.getTime() - lastUsed >= LAST_USED_WRITE_INTERVAL_MS) await repository.touchToken(db, token.id, now);
  return { tokenId: token.id, organizationId: token.organization_id, name: token.name };
}

/** The audit log's actor for a SCIM change: the token's name (no user). */
export function scimAuditContext(caller: ScimCaller, request: { ipAddress: string | null; userAgent: string | null }) {
  return {
    actor: { type: "scim_token", id: null, label: caller.name },
    impersonatorId: null,
    ipAddress: request.ipAddress,
    userAgent: request.userAgent,
  } satisfies AuditContext;
}
