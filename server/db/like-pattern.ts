/**
 * LIKE patterns from what a person typed: lowercased, with `%`, `_` and `\` escaped by a backslash so they match
 * themselves. A query using one names the escape character (`escape '\'`): SQLite has none by default.
 */
export const escapeLike = (term: string) => term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`);

/** `%term%` for LIKE: the term anywhere. */
export const containsPattern = (term: string) => `%${escapeLike(term)}%`;
