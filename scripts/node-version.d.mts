/** package.json's `engines.node`, written from the supported versions. */
export declare const ENGINES: string;
export declare function isSupportedNode(version: string): boolean;
export declare function requireSupportedNode(): void;
