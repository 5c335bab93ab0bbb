// Compiled with the browser code (tsconfig.web.json): proves the web's program has no Node globals. Should one leak in
// (say through a package's `/// <reference types="node" />`), an expectation below goes unused and `npm run typecheck` fails.

// @ts-expect-error -- Buffer is Node's, not the browser's
export const buffer = Buffer.from("x");
// @ts-expect-error -- process is Node's, not the browser's
export const env = process.env;
export const href: string = window.location.href;
