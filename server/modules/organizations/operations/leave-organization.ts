import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { clearActiveOrganization } from "../organizations.repository";
import { lockOrganizationOf, text, type Member, type OperationCall, type OrganizationOperation } from "./operation";

/** A member leaving an organization (an owner only while another owner remains, better-auth's rule). */
export const leaveOrganization: OrganizationOperation & {
  /** After better-auth's answer: leaving clears the organization from every session of the member (it clears one). */
  clearActiveOrganization: (db: Kysely<Database>, call: OperationCall) => Promise<void>;
} = {
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
  async clearActiveOrganization(db, { body, session }) {
    const organizationId = text(body.organizationId);
    if (session && organizationId) await clearActiveOrganization(db, session.user.id, organizationId);
  },
};
