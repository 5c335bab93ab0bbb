import type { dispatchAuthEndpoint } from "better-auth/api";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";
import { auditedEndpoint, type AuditedSession, type AuditRecord } from "../audit";
import { findMemberLabel, findTeamLabel, lockOrganizations, lockTeam } from "./organizations.repository";

type Endpoint = Parameters<typeof dispatchAuthEndpoint>[0];
type Body = Record<string, unknown>;

/** The organization endpoints whose changes the audit log records (better-auth's organization plugin's `endpoints`). */
export type AuditedOrganizationEndpoints = Record<
  | "createOrganization"
  | "updateOrganization"
  | "deleteOrganization"
  | "removeMember"
  | "updateMemberRole"
  | "leaveOrganization"
  | "createInvitation"
  | "acceptInvitation"
  | "rejectInvitation"
  | "cancelInvitation"
  | "createTeam"
  | "updateTeam"
  | "removeTeam"
  | "addTeamMember"
  | "removeTeamMember",
  Endpoint
>;

const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
const field = (value: unknown, key: string) =>
  value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
/** The organization a call is about: the one it names, else the session's active one (better-auth's own rule). */
const organizationOf = (body: Body, session: AuditedSession | null) =>
  text(body.organizationId) ?? session?.session.activeOrganizationId ?? undefined;

type Invitation = { id: string; email: string; role?: string | null; organizationId: string };
type Member = { id: string; userId: string; organizationId: string; role: string };
type Team = { id: string; name: string; organizationId: string };

/**
 * Changes that can take an owner away take turns on the organization's row with the deletion of an owner's
 * account (./account-deletion.ts), so the two never both count the other as the owner that remains.
 */
const lockOrganizationOf = async (db: Kysely<Database>, body: Body, session: AuditedSession | null) =>
  lockOrganizations(
    db,
    [organizationOf(body, session)].filter((id): id is string => id !== undefined),
  );

function invitationEntry(
  action: AuditRecord["action"],
  invitation: Invitation | undefined,
  details?: Record<string, unknown>,
): AuditRecord[] {
  if (!invitation) return [];
  return [
    {
      action,
      target: { type: "invitation", id: invitation.id, label: invitation.email },
      organization: { id: invitation.organizationId },
      details: { role: invitation.role ?? "member", ...details },
    },
  ];
}

/**
 * Each organization change better-auth makes, run in one transaction with its audit entry (the audit module's
 * `auditedEndpoint`): created, updated, deleted; members removed, re-roled, leaving; invitations sent, resent,
 * accepted (which adds a member), rejected, canceled; teams created, renamed, removed, and their members.
 */
export function organizationAuditHooks(db: Kysely<Database>, endpoints: AuditedOrganizationEndpoints) {
  return [
    auditedEndpoint({
      db,
      // Creating an organization and its owner membership is one step (the spec): better-auth 1.7 writes the
      // organization, the member, the default team and its member one after the other, outside any transaction.
      endpoint: endpoints.createOrganization,
      record: ({ response }) => {
        const organization = response as { id: string; name: string; slug: string };
        return [
          {
            action: "organization.created",
            target: { type: "organization", id: organization.id, label: organization.name },
            organization: { id: organization.id, name: organization.name },
            details: { slug: organization.slug },
          },
        ];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.updateOrganization,
      prior: async (trx, { body, session }) => {
        const id = organizationOf(body, session);
        return id
          ? await trx
              .selectFrom("organization")
              .select(["id", "name", "slug", "logo"])
              .where("id", "=", id)
              .executeTakeFirst()
          : undefined;
      },
      record: ({ body, prior, response }) => {
        const updated = response as { id: string; name: string; slug: string; logo?: string | null } | null;
        if (!prior || !updated) return [];
        const data = (field(body, "data") ?? {}) as Body;
        const changes: Record<string, unknown> = {};
        for (const key of ["name", "slug", "logo"] as const) {
          if (key in data && prior[key] !== updated[key])
            changes[key] = { from: prior[key] ?? null, to: updated[key] ?? null };
        }
        if ("metadata" in data) changes.metadata = "changed";
        return [
          {
            action: "organization.updated",
            target: { type: "organization", id: updated.id, label: updated.name },
            organization: { id: updated.id, name: updated.name },
            details: changes,
          },
        ];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.deleteOrganization,
      prior: async (trx, { body }) => {
        const id = text(body.organizationId);
        return id
          ? await trx.selectFrom("organization").select(["id", "name"]).where("id", "=", id).executeTakeFirst()
          : undefined;
      },
      record: ({ prior }) =>
        prior
          ? [
              {
                action: "organization.deleted",
                target: { type: "organization", id: prior.id, label: prior.name },
                organization: { id: prior.id, name: prior.name },
              },
            ]
          : [],
    }),
    auditedEndpoint({
      db,
      // Removing a member and clearing the organization from every session of theirs (afterRemoveMember) is one step.
      endpoint: endpoints.removeMember,
      lock: lockOrganizationOf,
      record: async ({ db: trx, response }) => {
        const member = field(response, "member") as Member | undefined;
        if (!member) return [];
        return [
          {
            action: "member.removed",
            target: {
              type: "user",
              id: member.userId,
              label: (await findMemberLabel(trx, member.userId)) ?? member.userId,
            },
            organization: { id: member.organizationId },
            details: { memberId: member.id, role: member.role },
          },
        ];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.updateMemberRole,
      lock: lockOrganizationOf,
      prior: async (trx, { body }) => {
        const id = text(body.memberId);
        return id
          ? (await trx.selectFrom("member").select("role").where("id", "=", id).executeTakeFirst())?.role
          : undefined;
      },
      record: async ({ db: trx, prior, response }) => {
        const member = response as Member | null;
        if (!member || prior === member.role) return [];
        return [
          {
            action: "member.role_changed",
            target: {
              type: "user",
              id: member.userId,
              label: (await findMemberLabel(trx, member.userId)) ?? member.userId,
            },
            organization: { id: member.organizationId },
            details: { memberId: member.id, from: prior ?? null, to: member.role },
          },
        ];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.leaveOrganization,
      lock: lockOrganizationOf,
      record: ({ response, session }) => {
        const member = response as Member | null;
        return member
          ? [
              {
                action: "member.left",
                target: { type: "user", id: member.userId, label: session?.user.email ?? member.userId },
                organization: { id: member.organizationId },
                details: { memberId: member.id, role: member.role },
              },
            ]
          : [];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.createInvitation,
      record: ({ body, response }) =>
        invitationEntry(
          body.resend === true ? "invitation.resent" : "invitation.sent",
          response as Invitation | undefined,
        ),
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.acceptInvitation,
      record: ({ response, session }) => {
        const invitation = field(response, "invitation") as Invitation | undefined;
        const member = field(response, "member") as Member | undefined;
        if (!invitation || !member) return [];
        return [
          ...invitationEntry("invitation.accepted", invitation),
          {
            action: "member.added",
            target: { type: "user", id: member.userId, label: session?.user.email ?? member.userId },
            organization: { id: member.organizationId },
            details: { memberId: member.id, role: member.role, invitationId: invitation.id },
          },
        ];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.rejectInvitation,
      record: ({ response }) =>
        invitationEntry("invitation.rejected", field(response, "invitation") as Invitation | undefined),
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.cancelInvitation,
      record: ({ response }) => invitationEntry("invitation.canceled", response as Invitation | undefined),
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.createTeam,
      record: ({ response }) => {
        const team = response as Team | null;
        return team
          ? [
              {
                action: "team.created",
                target: { type: "team", id: team.id, label: team.name },
                organization: { id: team.organizationId },
              },
            ]
          : [];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.updateTeam,
      prior: (trx, { body }) => findTeamLabel(trx, text(body.teamId) ?? ""),
      record: ({ prior, response }) => {
        const team = response as Team | null;
        if (!team || !prior || prior.name === team.name) return [];
        return [
          {
            action: "team.renamed",
            target: { type: "team", id: team.id, label: team.name },
            organization: { id: team.organizationId },
            details: { from: prior.name, to: team.name },
          },
        ];
      },
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.removeTeam,
      prior: (trx, { body }) => findTeamLabel(trx, text(body.teamId) ?? ""),
      record: ({ prior }) =>
        prior
          ? [
              {
                action: "team.removed",
                target: { type: "team", id: prior.id, label: prior.name },
                organization: { id: prior.organizationId },
              },
            ]
          : [],
    }),
    auditedEndpoint({
      db,
      // better-auth 1.7 adds a team member by looking for the membership, inserting it, and when the insert hits
      // the unique index looking again to answer with the existing one. On PostgreSQL that second look runs in a
      // transaction the failed insert has aborted, so the later of two concurrent adds answered 500 where a
      // sequential repeat answers 200. Locking the team row first makes concurrent adds to one team take turns,
      // and the later finds the membership as a repeat does (and records nothing new).
      endpoint: endpoints.addTeamMember,
      lock: async (trx, body) => {
        if (typeof body.teamId === "string") await lockTeam(trx, body.teamId);
      },
      prior: async (trx, { body }) => {
        const teamId = text(body.teamId);
        const userId = text(body.userId);
        const existing =
          teamId && userId
            ? await trx
                .selectFrom("teamMember")
                .select("id")
                .where("teamId", "=", teamId)
                .where("userId", "=", userId)
                .executeTakeFirst()
            : undefined;
        return { team: await findTeamLabel(trx, teamId ?? ""), isMember: existing !== undefined };
      },
      record: async ({ db: trx, body, prior }) =>
        teamMemberEntry(trx, "team.member_added", prior.isMember ? undefined : prior.team, text(body.userId)),
    }),
    auditedEndpoint({
      db,
      endpoint: endpoints.removeTeamMember,
      prior: (trx, { body }) => findTeamLabel(trx, text(body.teamId) ?? ""),
      record: async ({ db: trx, body, prior }) => teamMemberEntry(trx, "team.member_removed", prior, text(body.userId)),
    }),
  ];
}

async function teamMemberEntry(
  db: Kysely<Database>,
  action: "team.member_added" | "team.member_removed",
  team: Team | undefined,
  userId: string | undefined,
): Promise<AuditRecord[]> {
  if (!team || !userId) return [];
  return [
    {
      action,
      target: { type: "user", id: userId, label: (await findMemberLabel(db, userId)) ?? userId },
      organization: { id: team.organizationId },
      details: { teamId: team.id, team: team.name },
    },
  ];
}
