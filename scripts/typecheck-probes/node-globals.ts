// Compiled with the server code (tsconfig.server.json): proves the server's program has no DOM. Should the DOM leak in
// (say through a package's `/// <reference lib="dom" />`), an expectation below goes unused and `npm run typecheck` fails.

// @ts-expect-error -- window is the browser's, not Node's
export const href = window.location.href;
// @ts-expect-error -- document is the browser's, not Node's
export const title = document.title;
export const buffer: Buffer = Buffer.from("x");
