import { permittedOrganization, text, type OrganizationOperation } from "./operation";

/** Deleting an organization: its subscription ends first (if the provider cannot end it now, nothing is deleted). */
export const deleteOrganization: OrganizationOperation<{ id: string; name: string } | undefined> = {
  check: async (db, call, limits) => {
    const organizationId = await permittedOrganization(db, call, { organization: ["delete"] });
    if (organizationId) await limits.releaseOrganization(organizationId);
  },
  prior: async (db, { body }) => {
    const id = text(body.organizationId);
    return id
      ? await db.selectFrom("organization").select(["id", "name"]).where("id", "=", id).executeTakeFirst()
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
};
