import { text, type OrganizationOperation } from "./operation";

/** The server-side add of a member (no invitation): one more seat. better-auth records nothing for it, nor do we. */
export const addMember: OrganizationOperation = {
  check: async (_db, { body }, limits) => {
    const organizationId = text(body.organizationId);
    if (organizationId) await limits.assertWithinLimit(organizationId, "members", 1);
  },
  record: () => [],
};
