import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from "./account-limits";

// The sign-in form's schema is written by hand, as a Standard Schema (https://standardschema.dev) the form library
// validates like any zod schema: it is the only schema of the first page most people load, and even zod/mini would
// add about 5 KB (gzipped) of zod's core to it. Nothing else uses it: the server checks sign-in bodies with its own
// request schemas (server/auth/request-schemas.ts) and better-auth. Same rules and messages as the other forms.

export type SignInInput = { identifier: string; password: string; rememberMe?: boolean | undefined };

type Issue = { readonly message: string; readonly path?: ReadonlyArray<PropertyKey> };

/** The Standard Schema interface, v1 (the part a synchronous schema needs; `types` only carries the types). */
type StandardSchema<T> = {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { readonly value: T; readonly issues?: undefined } | { readonly issues: ReadonlyArray<Issue> };
    readonly types?: { readonly input: T; readonly output: T };
  };
};

/** One field takes an e-mail or a username: an at-sign decides which. */
export const signInSchema: StandardSchema<SignInInput> = {
  "~standard": {
    version: 1,
    vendor: "atrium",
    validate: (value) => {
      if (typeof value !== "object" || value === null) return { issues: [{ message: "Fill in the form" }] };
      const { identifier: rawIdentifier, password: rawPassword, rememberMe } = value as Record<string, unknown>;
      const identifier = typeof rawIdentifier === "string" ? rawIdentifier.trim() : "";
      const password = typeof rawPassword === "string" ? rawPassword : "";
      const issues: Issue[] = [];
      if (identifier.length === 0) issues.push({ message: "Enter your e-mail or username", path: ["identifier"] });
      if (identifier.length > EMAIL_MAX_LENGTH)
        issues.push({ message: `Use at most ${EMAIL_MAX_LENGTH} characters`, path: ["identifier"] });
      if (password.length > PASSWORD_MAX_LENGTH)
        issues.push({ message: `Use at most ${PASSWORD_MAX_LENGTH} characters`, path: ["password"] });
      if (password.length === 0) issues.push({ message: "Enter your password", path: ["password"] });
      if (rememberMe !== undefined && typeof rememberMe !== "boolean")
        issues.push({ message: "Check or clear this box", path: ["rememberMe"] });
      if (issues.length > 0) return { issues };
      return {
        value:
          rememberMe === undefined
            ? { identifier, password }
            : { identifier, password, rememberMe: rememberMe as boolean },
      };
    },
  },
};

/** Whether a sign-in identifier is an e-mail address (or else a username). */
export function isEmailIdentifier(identifier: string): boolean {
  return identifier.includes("@");
}
