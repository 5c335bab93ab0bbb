import { fuzzFamily } from "../test/fuzz/suite";

/**
 * Property-based fuzzing of the app's own routes (everything outside /api/auth and the sandbox), derived from the routes, never listed by hand: generated hostile
 * bodies, query strings, path parameters and headers from an anonymous caller, an organization owner and a platform
 * admin. No answer is a 5xx, and a refused (4xx) request leaves every table as it was (server/test/fuzz/suite.ts).
 */
fuzzFamily("app");
