import type { Context } from "hono";
import type { Kysely } from "kysely";
import { shareTransactions } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { headersWithClientIp } from "../../http/middleware/client-ip";
import { recordAuditEvent, requestAuditContext } from "../audit";
import { addTeamMember } from "./operations/add-team-member";
import { cancelInvitation } from "./operations/cancel-invitation";
import { createTeam } from "./operations/create-team";
import { inviteMember } from "./operations/invite-member";
import type {
  KeyOperation,
  OperationCall,
  OperationKey,
  OrganizationLimits,
  SendInvitationEmail,
} from "./operations/operation";
import { removeMember } from "./operations/remove-member";
import { removeTeam } from "./operations/remove-team";
import { removeTeamMember } from "./operations/remove-team-member";
import { updateMemberRole } from "./operations/update-member-role";
import { updateTeam } from "./operations/update-team";
import type { PublishChanges } from "./organizations.plugin";
import type { ScopedEnv } from "./organizations.scope";

/** The organization plugin's endpoints behind the app's organization writes (better-auth's `auth.api` names). */
export type OrganizationWriteEndpoint =
  | "updateMemberRole"
  | "removeMember"
  | "createInvitation"
  | "cancelInvitation"
  | "createTeam"
  | "updateTeam"
  | "removeTeam"
  | "addTeamMember"
  | "removeTeamMember";

/** What the organization writes need from the deployment, which app.ts binds (this module imports no server/auth). */
export type OrganizationWritesDeps = {
  db: Kysely<Database>;
  /** The plan limits, as the organization plugin has them. */
  limits: OrganizationLimits;
  /** The webhook events of the changes, queued in their transaction (as the organization plugin's). */
  publishChanges?: PublishChanges;
  /** The invitation mail (as the organization plugin sends it). */
  sendInvitationEmail: SendInvitationEmail;
  /** better-auth's endpoint, called with a person's request headers: its session, cookies, address. */
  callEndpoint: (
    endpoint: OrganizationWriteEndpoint,
    headers: Headers,
    body: Record<string, unknown>,
  ) => Promise<unknown>;
};

/**
 * The organization writes of the app's routes (organizations.routes.ts), each run by one operation of ./operations/,
 * whoever calls:
 * - a signed-in person: better-auth's own endpoint, with the request's session, so its permission rules and the
 *   operation's (run by the organization plugin, `auditedEndpoint`) decide as for the web app;
 * - an organization API key, which better-auth does not take: the operation itself, in one transaction, in the
 *   plugin's order: its lock, its checks (plan limits included), its prior read, its write (better-auth's rules that
 *   apply to a key), its audit entries with the key as actor, and their webhook events.
 * `body` is better-auth's endpoint's body. Each write answers what the endpoint answers.
 */
export function organizationWrites(deps: OrganizationWritesDeps) {
  const bind =
    <TPrior>(endpoint: OrganizationWriteEndpoint, operation: KeyOperation<TPrior>) =>
    (c: Context<ScopedEnv>, body: Record<string, unknown>): Promise<unknown> => {
      const scope = c.get("scope");
      if (!scope.apiKey)
        return deps.callEndpoint(endpoint, headersWithClientIp(c.req.raw.headers, c.get("clientIp")), body);
      const apiKey: OperationKey = { ...scope.apiKey, organizationId: scope.organizationId };
      return runAsApiKey(c, operation, { body, session: null, apiKey });
    };

  async function runAsApiKey<TPrior>(
    c: Context<ScopedEnv>,
    operation: KeyOperation<TPrior>,
    call: OperationCall & { apiKey: OperationKey },
  ): Promise<unknown> {
    const audit = requestAuditContext(c);
    return shareTransactions(deps.db)
      .transaction()
      .execute(async (trx) => {
        await operation.lock?.(trx, call);
        await operation.check?.(trx, call, deps.limits);
        const prior = (await operation.prior?.(trx, call)) as TPrior;
        const response = await operation.write(trx, call, deps);
        const records = await operation.record({ db: trx, body: call.body, session: null, prior, response });
        for (const record of records) await recordAuditEvent(trx, audit, record);
        await deps.publishChanges?.(trx, records);
        return response;
      });
  }

  return {
    updateMemberRole: bind("updateMemberRole", updateMemberRole),
    removeMember: bind("removeMember", removeMember),
    createInvitation: bind("createInvitation", inviteMember),
    cancelInvitation: bind("cancelInvitation", cancelInvitation),
    createTeam: bind("createTeam", createTeam),
    updateTeam: bind("updateTeam", updateTeam),
    removeTeam: bind("removeTeam", removeTeam),
    addTeamMember: bind("addTeamMember", addTeamMember),
    removeTeamMember: bind("removeTeamMember", removeTeamMember),
  };
}

export type OrganizationWrites = ReturnType<typeof organizationWrites>;
