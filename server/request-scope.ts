import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The request a piece of code runs for, found without threading it through every call: the logger puts its id on
 * every line written while the request is handled (better-auth's and the error handler's lines too), error answers
 * carry the id, and the metrics label the request with the route that answered it.
 */
export type RequestScope = {
  readonly requestId: string;
  /** The route pattern that answered (`/api/organizations/:organizationId`), set once routing has run. */
  route: string;
  /** Whether a database statement or connection failed while the request was handled (see `noteDatabaseFailure`). */
  sawDatabaseFailure?: boolean;
};

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs `handle(...args)` (and everything it starts) inside `scope`; the arguments spare the caller a closure. */
export function runInRequestScope<A extends unknown[], T>(
  scope: RequestScope,
  handle: (...args: A) => T,
  ...args: A
): T {
  return scopes.run(scope, handle, ...args);
}

/** The scope of the request being handled, or undefined outside one (startup, the background jobs). */
export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/**
 * Marks the request being handled as one that saw the database fail (a statement's error, a connection not given):
 * only then is an error answer put down to the database. Called by the database layer; a no-op outside a request.
 */
export function noteDatabaseFailure(): void {
  const scope = scopes.getStore();
  if (scope) scope.sawDatabaseFailure = true;
}
