import type { OrganizationOperation } from "./operation";

/**
 * Creating an organization and its owner membership is one step (the spec): better-auth 1.7 writes the
 * organization, the member, the default team and its member one after the other, outside any transaction.
 */
export const createOrganization: OrganizationOperation = {
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
};
