import { ERROR_STATUS, type CatalogueCode } from "./error-codes";

/**
 * The one error type the server's domain code throws (routes, services, modules, better-auth plugins' rules): a
 * code of the catalogue (common/error-codes.ts), whose status the catalogue gives, a message and, for some codes,
 * `details` (the issues of a validation error, the organizations of SOLE_OWNER). The app's error handler answers
 * it over HTTP; inside better-auth, `server/auth/domain-errors.ts` turns it into better-auth's APIError.
 */
export class DomainError extends Error {
  constructor(
    public readonly code: CatalogueCode,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = "DomainError";
  }

  /** An entry of one of the catalogue's `{ code, message }` tables, with its details. */
  static of(entry: { readonly code: CatalogueCode; readonly message: string }, details?: unknown): DomainError {
    return new DomainError(entry.code, entry.message, details);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
