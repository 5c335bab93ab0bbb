import { z } from "zod";
import { DomainError } from "../../common/domain-error";
import {
  asSent,
  banDurationSchema,
  callbackUrlSchema,
  columnSchema,
  currentPasswordSchema,
  displayUsernameSchema,
  EMAIL_MAX_LENGTH,
  emailSchema,
  idSchema,
  imageUrlSchema,
  nameSchema,
  passkeyNameSchema,
  passwordSchema,
  platformRoleSchema,
  platformRolesSchema,
  textSchema,
  tokenSchema,
} from "../../common/account.schemas";
import { reasonSchema } from "../../common/admin.schemas";
import { isDisplayNameSchema } from "../../common/display-name";
import { ERROR_CODES } from "../../common/error-codes";
import { permissionCheckSchema } from "../../common/organization.schemas";
import { ORGANIZATION_REQUEST_BODY_SCHEMAS, ORGANIZATION_REQUEST_QUERY_SCHEMAS } from "../modules/organizations";
import { SSO_REQUEST_BODY_SCHEMAS } from "../modules/sso";

// A display name bounds the raw value itself; its normalised form is what better-auth stores (see below).
const name = nameSchema;
const email = asSent(emailSchema, EMAIL_MAX_LENGTH);
const reason = reasonSchema.optional();
const banDuration = banDurationSchema.optional();

/**
 * better-auth checks these itself, with the limits from common/ (auth.ts passes them) and the statuses and
 * messages the spec fixes: 422 "username is too short" (also on sign-in), 400 "Password too short". Here
 * only their type, so those answers stay.
 */
const username = z.string();
const newPassword = z.string();

const LIST_MAX_LENGTH = 64;
const scopes = z.array(idSchema).max(LIST_MAX_LENGTH, `Send at most ${LIST_MAX_LENGTH} scopes`);
/** Provider-specific values better-auth forwards as they are (authorization parameters, data kept across the OAuth flow). */
const stringMap = z.record(idSchema, textSchema);
const opaqueMap = z.record(idSchema, z.unknown());

/**
 * The user fields a platform admin may set on create-user and update-user (better-auth takes any key). A
 * ban's expiry is set through ban-user, in seconds.
 */
const adminUserData = z.strictObject({
  name: name.optional(),
  email: email.optional(),
  emailVerified: z.boolean().optional(),
  image: imageUrlSchema.nullable().optional(),
  username: username.nullable().optional(),
  displayUsername: displayUsernameSchema.nullable().optional(),
  role: platformRolesSchema.optional(),
  banned: z.boolean().nullable().optional(),
  banReason: textSchema.nullable().optional(),
});

const socialTokens = {
  token: tokenSchema,
  nonce: tokenSchema.optional(),
  accessToken: tokenSchema.optional(),
  refreshToken: tokenSchema.optional(),
};
const socialFlow = {
  callbackURL: callbackUrlSchema.optional(),
  errorCallbackURL: callbackUrlSchema.optional(),
  provider: idSchema,
  disableRedirect: z.boolean().optional(),
  requestSignUp: z.boolean().optional(),
  scopes: scopes.optional(),
  loginHint: textSchema.optional(),
  additionalParams: stringMap.optional(),
  additionalData: opaqueMap.optional(),
};

const accountSelection = z.union(
  [
    z.strictObject({ accountId: idSchema, userId: idSchema.optional() }),
    z.strictObject({ useAccountCookie: z.literal(true), userId: idSchema.optional() }),
  ],
  { error: "Send accountId, or useAccountCookie: true" },
);

/**
 * A WebAuthn credential's answer as @simplewebauthn/browser sends it (base64url fields): its shape only, so a
 * malformed one is refused here; whether it verifies is the passkey plugin's to answer. The WebAuthn objects may
 * grow fields, so these pass unknown keys on.
 */
const base64url = tokenSchema.regex(/^[A-Za-z0-9_-]*$/, "Use base64url");
const webAuthnCredential = (response: Record<string, z.ZodType>) =>
  z.looseObject({
    id: base64url,
    rawId: base64url,
    type: z.literal("public-key"),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).nullish(),
    response: z.looseObject(response),
  });
const registrationResponse = webAuthnCredential({
  clientDataJSON: base64url,
  attestationObject: base64url,
  transports: z.array(idSchema).max(16).optional(),
});
const authenticationResponse = webAuthnCredential({
  clientDataJSON: base64url,
  authenticatorData: base64url,
  signature: base64url,
  userHandle: base64url.nullish(),
});

/** Endpoints that take no body: anything sent is a mistake. */
const noBody = z.strictObject({});
const secondFactorCode = z.string().max(64, "Use at most 64 characters");
const trustDevice = z.boolean().optional();

/**
 * The body of every POST endpoint the auth instance exposes, keyed by better-auth path (GET /get-session
 * also takes POST, but only with deferSessionRefresh, which is off: it answers 405). Objects are strict:
 * a key better-auth would ignore is refused, so a misspelt field is not silently dropped. Whether a value
 * exists (an id, a token, a password) stays better-auth's to answer.
 */
export const REQUEST_BODY_SCHEMAS: Record<string, z.ZodType> = {
  // Accounts
  "/sign-up/email": z.strictObject({
    name,
    email,
    password: newPassword,
    image: imageUrlSchema.optional(),
    username: username.nullable().optional(),
    displayUsername: displayUsernameSchema.nullable().optional(),
    callbackURL: callbackUrlSchema.optional(),
    rememberMe: z.boolean().optional(),
  }),
  "/sign-in/email": z.strictObject({
    email,
    password: currentPasswordSchema,
    callbackURL: callbackUrlSchema.optional(),
    rememberMe: z.boolean().optional(),
  }),
  "/sign-in/username": z.strictObject({
    username,
    password: currentPasswordSchema,
    callbackURL: callbackUrlSchema.optional(),
    rememberMe: z.boolean().optional(),
  }),
  "/sign-in/social": z.strictObject({
    ...socialFlow,
    newUserCallbackURL: callbackUrlSchema.optional(),
    idToken: z
      .strictObject({
        ...socialTokens,
        expiresAt: z.number().optional(),
        user: z
          .strictObject({
            name: z
              .strictObject({ firstName: displayUsernameSchema.optional(), lastName: displayUsernameSchema.optional() })
              .optional(),
            email: z.string().max(EMAIL_MAX_LENGTH, `Use at most ${EMAIL_MAX_LENGTH} characters`).optional(),
          })
          .optional(),
      })
      .optional(),
  }),
  "/link-social": z.strictObject({ ...socialFlow, idToken: z.strictObject(socialTokens).optional() }),
  "/unlink-account": z.strictObject({ accountId: idSchema }),
  "/get-access-token": accountSelection,
  "/refresh-token": accountSelection,
  // The provider posts its answer here (form_post); which fields it adds is the provider's choice.
  "/callback/:id": z.looseObject({
    code: tokenSchema.optional(),
    error: textSchema.optional(),
    device_id: idSchema.optional(),
    error_description: textSchema.optional(),
    state: tokenSchema.optional(),
    user: tokenSchema.optional(),
    iss: callbackUrlSchema.optional(),
  }),
  "/sign-out": z.strictObject({
    callbackURL: callbackUrlSchema.optional(),
    disableRedirect: z.boolean().optional(),
    state: tokenSchema.optional(),
  }),
  "/update-user": z.strictObject({
    name: name.optional(),
    image: imageUrlSchema.nullable().optional(),
    username: username.nullable().optional(),
    displayUsername: displayUsernameSchema.nullable().optional(),
  }),
  // Every session field is server-set (active organization and team, impersonation) in this configuration.
  "/update-session": noBody,
  "/change-password": z.strictObject({
    newPassword,
    currentPassword: currentPasswordSchema,
    revokeOtherSessions: z.boolean().optional(),
  }),
  "/change-email": z.strictObject({ newEmail: email, callbackURL: callbackUrlSchema.optional() }),
  "/verify-password": z.strictObject({ password: currentPasswordSchema }),
  "/request-password-reset": z.strictObject({ email, redirectTo: callbackUrlSchema.optional() }),
  // better-auth ignores revokeOtherSessions here (a reset ends every session); a client may send it as on change-password.
  "/reset-password": z.strictObject({
    newPassword,
    token: tokenSchema.optional(),
    revokeOtherSessions: z.boolean().optional(),
  }),
  "/send-verification-email": z.strictObject({ email, callbackURL: callbackUrlSchema.optional() }),
  "/delete-user": z.strictObject({
    callbackURL: callbackUrlSchema.optional(),
    password: currentPasswordSchema.optional(),
    token: tokenSchema.optional(),
  }),
  "/is-username-available": z.strictObject({ username }),
  "/revoke-session": z.strictObject({ token: tokenSchema }),
  "/revoke-sessions": noBody,
  "/revoke-other-sessions": noBody,

  ...ORGANIZATION_REQUEST_BODY_SCHEMAS,

  // Enterprise SSO (@better-auth/sso): provider management, discovery, the IdP's SAML posts.
  ...SSO_REQUEST_BODY_SCHEMAS,

  // Passkeys. Registration always adds to the signed-in account, so it opens no session (no createSession).
  "/passkey/verify-registration": z.strictObject({
    response: registrationResponse,
    name: passkeyNameSchema.optional(),
  }),
  "/passkey/verify-authentication": z.strictObject({ response: authenticationResponse }),
  "/passkey/update-passkey": z.strictObject({ id: idSchema, name: passkeyNameSchema }),
  "/passkey/delete-passkey": z.strictObject({ id: idSchema }),

  // Second factors (the two-factor plugin). Whether a code is right is the plugin's to answer: a malformed one is a
  // wrong code there, counted toward the attempt's limit. Mail OTP is not configured, so its routes refuse anyway.
  "/two-factor/enable": z.strictObject({ password: currentPasswordSchema }),
  "/two-factor/disable": z.strictObject({ password: currentPasswordSchema }),
  "/two-factor/generate-backup-codes": z.strictObject({ password: currentPasswordSchema }),
  "/two-factor/get-totp-uri": z.strictObject({ password: currentPasswordSchema }),
  "/two-factor/verify-totp": z.strictObject({ code: secondFactorCode, trustDevice }),
  "/two-factor/verify-backup-code": z.strictObject({ code: secondFactorCode, trustDevice }),
  "/two-factor/send-otp": z.strictObject({ trustDevice }),
  "/two-factor/verify-otp": z.strictObject({ code: secondFactorCode, trustDevice }),

  // Platform admin
  "/admin/set-role": z.strictObject({ userId: idSchema, role: platformRolesSchema }),
  // better-auth checks only the maximum length here: the minimum is the form's rule.
  "/admin/create-user": z.strictObject({
    email,
    password: passwordSchema.optional(),
    name,
    role: platformRolesSchema.optional(),
    data: adminUserData.optional(),
  }),
  "/admin/update-user": z.strictObject({ userId: idSchema, data: adminUserData }),
  "/admin/list-user-sessions": z.strictObject({ userId: idSchema }),
  "/admin/unban-user": z.strictObject({ userId: idSchema }),
  // The reason of a ban or an impersonation goes into the audit log (an impersonation's is ours, better-auth
  // ignores it). The console asks for one; the spec's calls send none, and the entry then has none.
  "/admin/ban-user": z.strictObject({ userId: idSchema, banReason: reason, banExpiresIn: banDuration }),
  "/admin/impersonate-user": z.strictObject({ userId: idSchema, reason }),
  "/admin/stop-impersonating": noBody,
  "/admin/revoke-user-session": z.strictObject({ sessionToken: tokenSchema }),
  "/admin/revoke-user-sessions": z.strictObject({ userId: idSchema }),
  "/admin/remove-user": z.strictObject({ userId: idSchema }),
  "/admin/set-user-password": z.strictObject({ newPassword, userId: idSchema }),
  "/admin/has-permission": permissionCheckSchema({ userId: idSchema.optional(), role: platformRoleSchema.optional() }),
};

const fieldName = (path: PropertyKey[]) => (path.length ? path.join(".") : "body");

/** "field: message" for each problem; an unknown field is named, a bad map key is not echoed back. */
function describeIssues(issues: z.core.$ZodIssue[]): string {
  return issues
    .flatMap((issue) => {
      if (issue.code === "unrecognized_keys")
        return issue.keys.map((key) => `${fieldName([...issue.path, key])}: Unknown field`);
      if (issue.code === "invalid_key")
        return [
          `${fieldName(issue.path.slice(0, -1))} (key): ${issue.issues.map((inner) => inner.message).join(", ")}`,
        ];
      return [`${fieldName(issue.path)}: ${issue.message}`];
    })
    .join("; ");
}

/**
 * Query fields better-auth hands to its database adapter as column names without checking them: an unknown
 * one made list-members answer 500 ("Field x not found in model member"). Other query fields pass as sent.
 */
const columnOf = columnSchema;
const USER_COLUMNS: [string, ...string[]] = [
  "id",
  "name",
  "email",
  "emailVerified",
  "username",
  "displayUsername",
  "role",
  "banned",
  "createdAt",
  "updatedAt",
];
export const REQUEST_QUERY_SCHEMAS: Record<string, z.ZodType> = {
  ...ORGANIZATION_REQUEST_QUERY_SCHEMAS,
  "/admin/list-users": z.object({ sortBy: columnOf(USER_COLUMNS), filterField: columnOf(USER_COLUMNS) }),
  "/passkey/generate-register-options": z.object({ name: passkeyNameSchema.optional() }),
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Writes the normalised form (NFC, trimmed) of every display-name field into the body as sent, following the
 * schema's objects: better-auth stores what it reads, and a name stored as " =1+1" or decomposed would differ
 * from what every form saves. In place, so the plugins' hooks after this one read the same names.
 */
function storeNormalisedNames(schema: z.ZodType, sent: unknown, parsed: unknown): void {
  if (!(schema instanceof z.ZodObject) || !isRecord(sent) || !isRecord(parsed)) return;
  for (const [key, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (!Object.hasOwn(sent, key)) continue;
    let field = fieldSchema;
    while (field instanceof z.ZodOptional || field instanceof z.ZodNullable) field = field.unwrap() as z.ZodType;
    if (isDisplayNameSchema(field) && typeof parsed[key] === "string") sent[key] = parsed[key];
    else storeNormalisedNames(field, sent[key], parsed[key]);
  }
}

function assertMatches(table: Record<string, z.ZodType>, path: string, value: unknown): void {
  const schema = Object.hasOwn(table, path) ? table[path] : undefined;
  const result = schema?.safeParse(value);
  if (result && !result.success) {
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, describeIssues(result.error.issues));
  }
  if (schema && result) storeNormalisedNames(schema, value, result.data);
}

/**
 * Checks a request's body and query against their entries in the tables and refuses a bad one with 400
 * `{ code: "VALIDATION_ERROR", message }`. Called first in auth.ts's global before-hook, which better-auth
 * runs ahead of every plugin's hooks, so no rule sees input of the wrong shape. It changes one thing only:
 * a display name (user, organization, team) is replaced by its normalised form; the rest stays as sent.
 */
export function assertValidRequest(ctx: { path: string; body?: unknown; query?: unknown }): void {
  assertMatches(REQUEST_BODY_SCHEMAS, ctx.path, ctx.body === undefined ? {} : ctx.body);
  assertMatches(REQUEST_QUERY_SCHEMAS, ctx.path, ctx.query ?? {});
}
