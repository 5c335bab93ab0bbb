/**
 * Starts a spreadsheet reads as a formula (OWASP, CSV injection): = + - @, tab or carriage return, also behind
 * any leading white space or invisible format character, since spreadsheets skip those (a team named " =1+1",
 * or with a no-break space first, still ran as a formula).
 */
const FORMULA_START = /^[\p{White_Space}\p{Cf}]*[=+\-@\t\r]/u;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180). A value a spreadsheet would run as a formula gets a leading apostrophe, since
 * names and reasons are typed by users; then a value holding a separator, quote or line break is quoted,
 * its quotes doubled.
 */
export function csvField(value: string | null): string {
  if (value === null) return "";
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
