import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { findMembership, findOrganizationName, renameTeamsNamed } from "../organizations.repository";
import { field, organizationOf, type OrganizationOperation } from "./operation";

type Organization = { id: string; name: string; slug: string; logo?: string | null };

/** Updating an organization: its name, slug, logo or metadata; the default team follows a rename. */
export const updateOrganization: OrganizationOperation<Organization | undefined> & {
  /**
   * The default team: better-auth creates every organization with a team named after it (the spec keeps at least
   * one team), and the creator in it. A team that still carries the organization's name is that default, so it
   * follows a rename of the organization; a team given a name of its own keeps it. Runs before the rename
   * (better-auth's beforeUpdateOrganization, once it has let the caller through).
   */
  renameDefaultTeam: (
    db: Kysely<Database>,
    input: { userId: string; organizationId: string; name: unknown },
  ) => Promise<void>;
} = {
  prior: async (db, call) => {
    const id = organizationOf(call);
    return id
      ? await db
          .selectFrom("organization")
          .select(["id", "name", "slug", "logo"])
          .where("id", "=", id)
          .executeTakeFirst()
      : undefined;
  },
  record: ({ body, prior, response }) => {
    const updated = response as Organization | null;
    if (!prior || !updated) return [];
    const data = (field(body, "data") ?? {}) as Record<string, unknown>;
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
  async renameDefaultTeam(db, input) {
    if (typeof input.name !== "string" || !input.name.trim()) return;
    const scope = await findMembership(db, input.organizationId, input.userId);
    if (!scope) return;
    const currentName = await findOrganizationName(db, scope);
    if (currentName !== undefined && currentName !== input.name)
      await renameTeamsNamed(db, scope, currentName, input.name, new Date());
  },
};
