/** Whether dist/web/index.html is missing or older than a file in web/ or common/ of the repository at `root`. */
export declare function isWebBuildStale(root: string): boolean;
/** Runs `vite build` in `root` (its output goes to this terminal) and returns its exit status. */
export declare function buildWebApp(root: string): number;
