import { Resolver } from "node:dns/promises";

/** How long one lookup may take: a verification is a person waiting for an answer. */
const TIMEOUT_MS = 3_000;

/** Looks TXT records up; answers each record's strings joined (one value per record), [] for no record. */
export type TxtLookup = (name: string) => Promise<string[]>;

/**
 * TXT lookups through `servers` (IP addresses with optional ports, Resolver#setServers's form), or through the
 * system's resolvers when there are none. A name without records or that does not exist answers []; any other
 * failure (a timeout, a refused query) throws, so the caller can tell "not published" from "could not ask".
 */
export function createTxtLookup(servers: readonly string[]): TxtLookup {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "ENOTFOUND" || code === "ENODATA") return [];
      throw error;
    }
  };
}
