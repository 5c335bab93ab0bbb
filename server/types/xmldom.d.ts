// samlify (behind @better-auth/sso) imports its XML parser's types, and those declarations switch the browser's DOM
// library on for the whole program (`/// <reference lib="dom" />`), which the server's program must not have
// (scripts/typecheck-probes/node-globals.ts). tsconfig.server.json maps the parser's module to these declarations:
// the two names samlify's types use, and nothing of the DOM. The code itself runs the real package.

export declare class DOMParser {
  constructor(options?: Options);
  parseFromString(source: string, mimeType?: string): unknown;
}

export type Options = Record<string, unknown>;
