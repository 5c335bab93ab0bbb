import { DomainError } from "../../../common/domain-error";
import { SCIM_ERROR_CODES } from "../../../common/error-codes";
import { emailOf, type PatchOperation, type ScimUserState, type ScimGroupState } from "./scim.schemas";

/**
 * RFC 7644 section 3.5.2's PATCH, applied to what the app keeps of a User or a Group, in the shapes Okta and Entra ID
 * send: operations named in any case (`Replace`), a `path`, or none and a value object whose keys are paths
 * (`{ "active": false }`, `{ "name.givenName": "Ada" }`, `{ "emails[type eq \"work\"].value": "…" }`), booleans
 * as strings (`"False"`), and group members added or removed by `members` with a list or `members[value eq "…"]`.
 */

const USER_SCHEMA_PREFIX = "urn:ietf:params:scim:schemas:core:2.0:user:";
const GROUP_SCHEMA_PREFIX = "urn:ietf:params:scim:schemas:core:2.0:group:";
const ENTERPRISE_USER_PREFIX = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:user";

/** User attributes of the core schema that directories send and the app does not keep: accepted and left out. */
const IGNORED_USER_ATTRIBUTES = new Set([
  "title",
  "preferredlanguage",
  "locale",
  "timezone",
  "nickname",
  "profileurl",
  "usertype",
  "password",
  "name.middlename",
  "name.honorificprefix",
  "name.honorificsuffix",
  "name.formatted",
  "phonenumbers",
  "addresses",
  "ims",
  "photos",
  "roles",
  "entitlements",
  "x509certificates",
]);

const invalidValue = (message: string) => new DomainError(SCIM_ERROR_CODES.SCIM_INVALID_VALUE.code, message);
const invalidPath = (path: string) =>
  new DomainError(SCIM_ERROR_CODES.SCIM_INVALID_PATH.code, `The PATCH operation's path is not supported: ${path}`);

/** `true`, `false`, `"True"`, `"False"`; anything else is refused. */
export function booleanOf(value: unknown, attribute: string): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  throw invalidValue(`${attribute} must be true or false`);
}

function stringOrNull(value: unknown, attribute: string, isRemove: boolean): string | null {
  if (isRemove || value === null) return null;
  if (typeof value === "string" && value.trim().length <= 256) return value.trim() || null;
  throw invalidValue(`${attribute} must be a string of at most 256 characters`);
}

function operationName(operation: PatchOperation): "add" | "replace" | "remove" {
  const op = operation.op.toLowerCase();
  if (op === "add" || op === "replace" || op === "remove") return op;
  throw invalidValue(`Unknown PATCH operation "${operation.op}": use add, replace or remove`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The path in lowercase, without the core schema's URN and with filters' spacing and quotes normalized. */
function normalizePath(path: string, prefix: string): string {
  let normalized = path.trim().toLowerCase();
  if (normalized.startsWith(prefix)) normalized = normalized.slice(prefix.length);
  return normalized.replace(/\s+/g, " ").replace(/\[\s*/g, "[").replace(/\s*\]/g, "]");
}

const EMAIL_VALUE_PATH = /^emails(\[(type eq "?work"?|primary eq "?true"?)\])?\.value$/;

/** Applies one User attribute (lowercase path) to the state. */
function applyUserAttribute(state: ScimUserState, path: string, value: unknown, isRemove: boolean): ScimUserState {
  if (path.startsWith(ENTERPRISE_USER_PREFIX) || IGNORED_USER_ATTRIBUTES.has(path.split(/[.[]/)[0]!)) return state;
  if (IGNORED_USER_ATTRIBUTES.has(path.replace(/\[[^\]]*\]/, ""))) return state;
  switch (path) {
    case "active":
      return isRemove ? state : { ...state, active: booleanOf(value, "active") };
    case "username": {
      const userName = stringOrNull(value, "userName", isRemove);
      if (!userName) throw invalidValue("userName cannot be removed");
      return { ...state, userName };
    }
    case "externalid":
      return { ...state, externalId: stringOrNull(value, "externalId", isRemove) };
    case "displayname":
      return { ...state, displayName: stringOrNull(value, "displayName", isRemove) };
    case "name.givenname":
      return { ...state, givenName: stringOrNull(value, "name.givenName", isRemove) };
    case "name.familyname":
      return { ...state, familyName: stringOrNull(value, "name.familyName", isRemove) };
    case "name":
      if (isRemove) return { ...state, givenName: null, familyName: null };
      if (!isRecord(value)) throw invalidValue("name must be an object");
      return Object.entries(value).reduce(
        (next, [key, child]) => applyUserAttribute(next, `name.${key.toLowerCase()}`, child, false),
        state,
      );
    case "emails": {
      // The account's address stays: removing a directory's e-mails leaves the one the app knows.
      if (isRemove) return state;
      const email = emailOf(value);
      if (!email) throw invalidValue("emails must hold an e-mail address");
      return { ...state, email };
    }
  }
  if (EMAIL_VALUE_PATH.test(path)) {
    if (isRemove) return state;
    const email = emailOf([{ value, primary: true }]);
    if (!email) throw invalidValue(`${path} must be an e-mail address`);
    return { ...state, email };
  }
  throw invalidPath(path);
}

/** The User after the PATCH operations, applied in order (the request is refused whole when one is not valid). */
export function applyUserPatch(state: ScimUserState, operations: readonly PatchOperation[]): ScimUserState {
  return operations.reduce((next, operation) => {
    const op = operationName(operation);
    if (operation.path)
      return applyUserAttribute(
        next,
        normalizePath(operation.path, USER_SCHEMA_PREFIX),
        operation.value,
        op === "remove",
      );
    if (op === "remove") throw invalidValue("A remove operation needs a path");
    if (!isRecord(operation.value)) throw invalidValue("An operation without a path needs an object value");
    return Object.entries(operation.value).reduce((current, [key, value]) => {
      // Entra ID may send the enterprise extension as a nested object: left out like its attributes.
      if (key.toLowerCase().startsWith(ENTERPRISE_USER_PREFIX)) return current;
      return applyUserAttribute(current, normalizePath(key, USER_SCHEMA_PREFIX), value, false);
    }, next);
  }, state);
}

/** The member ids of a `members` value: `[{ "value": "<id>" }, …]` (one object alone is taken as a list of one). */
function memberIdsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((member) => {
    if (!isRecord(member) || typeof member.value !== "string" || member.value.length > 256)
      throw invalidValue('members must be a list of { "value": "<user id>" }');
    return member.value;
  });
}

const MEMBER_FILTER_PATH = /^members\[value eq "([^"]+)"\]$/;

function applyGroupAttribute(
  state: ScimGroupState,
  path: string,
  op: "add" | "replace" | "remove",
  value: unknown,
): ScimGroupState {
  switch (path) {
    case "displayname": {
      const displayName = stringOrNull(value, "displayName", op === "remove");
      if (!displayName) throw invalidValue("displayName cannot be removed");
      return { ...state, displayName };
    }
    case "externalid":
      return { ...state, externalId: stringOrNull(value, "externalId", op === "remove") };
    case "members": {
      const ids = memberIdsOf(value);
      if (op === "replace") return { ...state, members: [...new Set(ids)] };
      if (op === "add") return { ...state, members: [...new Set([...state.members, ...ids])] };
      // Entra ID removes with a list; without one every member goes (RFC 7644 section 3.5.2.2).
      if (value === undefined) return { ...state, members: [] };
      return { ...state, members: state.members.filter((id) => !ids.includes(id)) };
    }
  }
  const filtered = MEMBER_FILTER_PATH.exec(path);
  if (filtered && op === "remove") return { ...state, members: state.members.filter((id) => id !== filtered[1]) };
  throw invalidPath(path);
}

/** The Group after the PATCH operations, applied in order. */
export function applyGroupPatch(state: ScimGroupState, operations: readonly PatchOperation[]): ScimGroupState {
  return operations.reduce((next, operation) => {
    const op = operationName(operation);
    // Member ids keep their case: only the attribute name is lowercased.
    if (operation.path) {
      const path = normalizePath(operation.path, GROUP_SCHEMA_PREFIX);
      const original = /^members\[value eq "([^"]+)"\]$/i.exec(operation.path.trim().replace(/\s+/g, " "));
      const memberPath = original ? `members[value eq "${original[1]}"]` : path;
      return applyGroupAttribute(next, memberPath, op, operation.value);
    }
    if (op === "remove") throw invalidValue("A remove operation needs a path");
    if (!isRecord(operation.value)) throw invalidValue("An operation without a path needs an object value");
    return Object.entries(operation.value).reduce((current, [key, value]) => {
      // Okta repeats the group's id with a rename.
      if (key.toLowerCase() === "id" || key.toLowerCase() === "schemas") return current;
      return applyGroupAttribute(current, normalizePath(key, GROUP_SCHEMA_PREFIX), op, value);
    }, next);
  }, state);
}
