// The Node versions Atrium runs on (package.json `engines`; ADR 0019): the SQLite driver does not load on older ones,
// and on Node 20 it crashes the process without a word. `npm start` and `npm run dev` say so first.

/** Each supported major version with the first minor version that works. */
const SUPPORTED = { 22: 14, 24: 0, 26: 0 };

/** package.json's `engines.node`, written from SUPPORTED (a test checks they agree). */
export const ENGINES = Object.entries(SUPPORTED)
  .map(([major, minor]) => `^${major}.${minor}.0`)
  .join(" || ");

/** @param {string} version such as "24.22.3" */
export function isSupportedNode(version) {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major in SUPPORTED && minor >= SUPPORTED[major];
}

/** Exits with a one-line explanation when this Node is not one Atrium runs on. */
export function requireSupportedNode() {
  if (isSupportedNode(process.versions.node)) return;
  console.error(`Atrium runs on Node ${ENGINES}; this is Node ${process.versions.node}. Install Node 24 LTS.`);
  process.exit(1);
}
