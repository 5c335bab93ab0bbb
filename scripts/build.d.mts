/** Runs the given builds in `root` (their output goes to this terminal); 0, or the failed build's exit status. */
export declare function build(root: string, builds?: Array<"web" | "server">): number;
