/** An endpoint as better-auth defines it: core endpoints from `better-auth/api`, a plugin's from its `endpoints`. */
type EndpointDefinition = { path: string };

/** What a hook's matcher is handed: the called endpoint's path and the auth instance it runs in. */
type MatcherContext = { path?: string; context?: { getPlugin: (id: string) => unknown } };

/** A hook's matcher for the given endpoints, named by their definitions rather than by path strings. */
export function matches(...endpoints: EndpointDefinition[]): (context: { path?: string }) => boolean {
  const paths = new Set(endpoints.map((endpoint) => endpoint.path));
  return (context) => context.path !== undefined && paths.has(context.path);
}

/** A plugin's endpoint as the running auth instance registered it, by the plugin's id and the endpoint's key. */
function pluginEndpoint(context: MatcherContext, pluginId: string, key: string): EndpointDefinition | undefined {
  const plugin = context.context?.getPlugin(pluginId) as { endpoints?: Record<string, EndpointDefinition> } | null;
  return plugin?.endpoints?.[key];
}

/**
 * A hook's matcher for endpoints of a plugin the hook's code does not build (another module's hook, the options'
 * global hook), found through the running auth instance.
 */
export function matchesPluginEndpoints(pluginId: string, ...keys: string[]): (context: MatcherContext) => boolean {
  return (context) =>
    keys.some((key) => {
      const endpoint = pluginEndpoint(context, pluginId, key);
      return endpoint !== undefined && context.path === endpoint.path;
    });
}
