import { SPEC_ERRORS } from "./auth/spec-errors";
import { accountUniqueConflicts } from "./auth/unique-conflicts";
import { createErrorHandler, type ErrorHandlerDeps, type UniqueConflict } from "./http/errors";
import type { Logger } from "./logger";
import { organizationUniqueConflicts } from "./modules/organizations";
import { ssoUniqueConflicts } from "./modules/sso";

/** The answers of lost races on unique indexes, from the modules (and auth) that own the indexes. */
export const UNIQUE_CONFLICTS: readonly UniqueConflict[] = [
  ...organizationUniqueConflicts,
  ...ssoUniqueConflicts,
  ...accountUniqueConflicts,
];

/**
 * The app's one `onError`: http's handler given the spec's error table (server/auth) and the modules' unique-index
 * conflicts, here where the app is assembled, so that http/ imports neither auth/ nor a module.
 */
export function createAppErrorHandler(logger: Logger, dependencies: Pick<ErrorHandlerDeps, "isDatabaseDown"> = {}) {
  return createErrorHandler(logger, { ...dependencies, errorAnswers: SPEC_ERRORS, uniqueConflicts: UNIQUE_CONFLICTS });
}
