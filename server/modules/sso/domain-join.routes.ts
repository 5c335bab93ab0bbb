import { Hono } from "hono";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { ERROR_CODES } from "../../../common/error-codes";
import type { JoinableOrganization } from "../../../common/sso.schemas";
import type { Database } from "../../db/schema";
import type { GetSession, SessionEnv } from "../../http/app-env";
import { validate } from "../../http/validate";
import { requestAuditContext } from "../audit";
import { joinByVerifiedDomain, listJoinableOrganizations } from "./domain-join";
import { organizationParamsSchema } from "./sso.schemas";
import type { SsoLimits } from "./sso.service";

/**
 * Mounted at /api/joinable-organizations: `GET /` lists the organizations the signed-in person may join by their
 * verified address's domain, `POST /{organizationId}/join` joins one (docs/sso.md).
 */
export function domainJoinRoutes(deps: { getSession: GetSession; db: Kysely<Database>; limits: SsoLimits }) {
  const signedIn = async (headers: Headers) => {
    const session = await deps.getSession(headers);
    if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    return session;
  };
  return new Hono<SessionEnv>()
    .get("/", async (c) => {
      const session = await signedIn(c.req.raw.headers);
      return c.json((await listJoinableOrganizations(deps.db, session.user.id)) satisfies JoinableOrganization[]);
    })
    .post("/:organizationId/join", validate("param", organizationParamsSchema), async (c) => {
      const session = await signedIn(c.req.raw.headers);
      c.set("session", session);
      const joined = await joinByVerifiedDomain(deps.db, deps.limits, {
        userId: session.user.id,
        email: session.user.email,
        organizationId: c.req.valid("param").organizationId,
        audit: requestAuditContext(c),
      });
      return c.json(joined satisfies JoinableOrganization);
    });
}

export type DomainJoinRoutes = ReturnType<typeof domainJoinRoutes>;
