import { DomainError } from "../../../common/domain-error";
import { SCIM_ERROR_CODES } from "../../../common/error-codes";

/**
 * The part of RFC 7644 section 3.4.2.2's filters that directories send: comparisons joined by `and`, each an attribute,
 * `eq`, `co` or `sw`, and a quoted string (or true/false). Okta and Entra ID look people up with `userName eq "…"`
 * and `externalId eq "…"`, groups with `displayName eq "…"`. Attribute names and operators are case-insensitive.
 */
export type FilterOperator = "eq" | "co" | "sw";
export type FilterTerm<A extends string> = { attribute: A; operator: FilterOperator; value: string | boolean };

const TERM = /^\s*([A-Za-z][\w.]*)\s+(eq|co|sw)\s+("(?:[^"\\]|\\.)*"|true|false)\s*$/i;
const MAX_FILTER_LENGTH = 1_000;

/** Parses `filter` against the resource's attributes (lowercase name -> canonical name); 400 invalidFilter otherwise. */
export function parseFilter<A extends string>(
  filter: string | undefined,
  attributes: Readonly<Record<string, A>>,
): FilterTerm<A>[] {
  if (filter === undefined || filter.trim() === "") return [];
  if (filter.length > MAX_FILTER_LENGTH) throw DomainError.of(SCIM_ERROR_CODES.SCIM_INVALID_FILTER);
  return splitOnAnd(filter).map((part) => {
    const match = TERM.exec(part);
    const attribute = match && attributes[match[1]!.toLowerCase()];
    if (!match || !attribute) throw DomainError.of(SCIM_ERROR_CODES.SCIM_INVALID_FILTER);
    const raw = match[3]!;
    let value: string | boolean;
    if (raw.startsWith('"')) {
      try {
        value = JSON.parse(raw) as string;
      } catch {
        throw DomainError.of(SCIM_ERROR_CODES.SCIM_INVALID_FILTER);
      }
    } else value = raw.toLowerCase() === "true";
    return { attribute, operator: match[2]!.toLowerCase() as FilterOperator, value };
  });
}

/** Splits on ` and ` outside quoted strings. */
function splitOnAnd(filter: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let isQuoted = false;
  for (let index = 0; index < filter.length; index++) {
    const char = filter[index];
    if (char === "\\" && isQuoted) index++;
    else if (char === '"') isQuoted = !isQuoted;
    else if (!isQuoted && /^\sand\s/i.test(filter.slice(index, index + 5))) {
      parts.push(filter.slice(start, index));
      start = index + 5;
      index += 3;
    }
  }
  parts.push(filter.slice(start));
  return parts;
}
