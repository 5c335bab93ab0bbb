export declare const BUILDS: Record<"web" | "server", { output: string; sources: string[] }>;
/** The builds (dist/web, dist/server; both by default) that are missing or older than a source file of the repository at `root`. */
export declare function staleBuilds(root: string, names?: Array<"web" | "server">): Array<"web" | "server">;
/** Builds the stale ones outside production; in production exits 1 with a message when one is missing or stale. */
export declare function ensureBuilt(root: string, names: Array<"web" | "server">): Promise<void>;
