import { DomainError } from "../../../common/domain-error";
import { SSO_ERROR_CODES } from "../../../common/error-codes";
import type { UniqueConflict } from "../../http/errors";

/**
 * Two organizations verifying the same domain at the same moment: both find it free, and the partial unique index of
 * migration 0018 refuses the second's update, which answers as its sequential twin.
 */
export const ssoUniqueConflicts: readonly UniqueConflict[] = [
  {
    indexes: ["ssoProvider_verified_domain_key", "ssoProvider.domain"],
    answer: () => DomainError.of(SSO_ERROR_CODES.SSO_DOMAIN_TAKEN),
  },
];
