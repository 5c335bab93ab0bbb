import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { APIError } from "better-auth/api";
import { DomainError } from "../../common/domain-error";

/** A DomainError as better-auth's APIError: the catalogue's status, the code, the message and any details. */
export function toAPIError(error: DomainError): APIError {
  const { code, message, details } = error;
  // The catalogue's statuses are HTTP statuses better-call knows by number.
  const status = error.status as ConstructorParameters<typeof APIError>[0];
  return new APIError(status, { code, message, ...(details === undefined ? {} : { details }) });
}

type Hook = { handler: (...args: never[]) => unknown };

/** The hook's handler, turning a DomainError it (or an endpoint it runs) throws into better-auth's APIError. */
function adaptHook<T extends Hook>(hook: T): T {
  const { handler } = hook;
  const adapted = async (...args: Parameters<T["handler"]>) => {
    try {
      return await handler(...args);
    } catch (error) {
      throw error instanceof DomainError ? toAPIError(error) : error;
    }
  };
  return { ...hook, handler: adapted };
}

/**
 * The one adapter from domain code to better-auth: every hook, the options' own and each plugin's, turns a
 * DomainError into the APIError better-auth answers itself (and that its after-hooks and the spec-errors plugin
 * see). Applied once, where the options are assembled (server/auth/auth.ts).
 */
export function withDomainErrors<T extends Pick<BetterAuthOptions, "hooks" | "plugins">>(options: T): T {
  const { before, after } = options.hooks ?? {};
  const adaptPlugin = (plugin: BetterAuthPlugin): BetterAuthPlugin =>
    plugin.hooks
      ? {
          ...plugin,
          hooks: {
            ...(plugin.hooks.before ? { before: plugin.hooks.before.map(adaptHook) } : {}),
            ...(plugin.hooks.after ? { after: plugin.hooks.after.map(adaptHook) } : {}),
          },
        }
      : plugin;
  return {
    ...options,
    hooks: {
      ...options.hooks,
      ...(before ? { before: adaptHook({ handler: before }).handler as typeof before } : {}),
      ...(after ? { after: adaptHook({ handler: after }).handler as typeof after } : {}),
    },
    plugins: options.plugins?.map(adaptPlugin) as T["plugins"],
  };
}
