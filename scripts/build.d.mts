/** The builds (dist/web, dist/server) that are missing or older than a source file of the repository at `root`. */
export declare function staleBuilds(root: string): Array<"web" | "server">;
/** Runs the given builds in `root` (their output goes to this terminal); 0, or the failed build's exit status. */
export declare function build(root: string, builds?: Array<"web" | "server">): number;
