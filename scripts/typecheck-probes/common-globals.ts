// Compiled with common/ (tsconfig.common.json), which runs on both sides: neither the DOM nor Node's globals.

// @ts-expect-error -- window is the browser's
export const href = window.location.href;
// @ts-expect-error -- Buffer is Node's
export const buffer = Buffer.from("x");
