import { Hono } from "hono";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { nameSchema } from "../../common/account.schemas";
import { createAppErrorHandler } from "../app-errors";
import { REQUEST_BODY_SCHEMAS } from "../auth/request-schemas";
import { createLogger } from "../logger";
import { buildUser, createVerifiedUser, type TestUser } from "../test/factories";
import { createClient, randomIp, readJson } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";
import { validate } from "./validate";

/**
 * Every body every endpoint takes is checked on the server with the forms' schemas: for each entry of the
 * better-auth table and each of the app's own routes, a too-long value and a malformed one are answered
 * with a clear 400, and nothing is stored. The requests come from a platform admin who owns an
 * organization, so a check that let them through would reach a caller allowed to change things.
 */

const ADMIN_EMAIL = `admin.${buildUser().username}@example.test`;

type Fixtures = { organizationId: string; teamId: string; invitationId: string; memberId: string; userId: string };
type Case = { body: (f: Fixtures) => unknown; message: string; status?: number; code?: string };
type PathCases = { tooLong: Case; malformed: Case; more?: Case[] };

const long = (length: number) => "x".repeat(length);
const longEmail = `${long(250)}@example.test`;
const typeError = (field: string, expected: string, received: string) =>
  `${field}: Invalid input: expected ${expected}, received ${received}`;
const atMost = (field: string, max: number) => `${field}: Use at most ${max} characters`;

/** Bodies of the endpoints that take none: any field is unknown, and a body that is not an object is refused. */
const noBodyCases: PathCases = {
  tooLong: { body: () => ({ reason: long(10_000) }), message: "reason: Unknown field" },
  malformed: { body: () => [1, 2], message: "body: Invalid input: expected object, received array" },
};

/** A WebAuthn credential's answer as the browser library sends it, with `response` as given. */
const credential = (response: Record<string, string>) => ({ id: "AQID", rawId: "AQID", type: "public-key", response });
const assertion = { clientDataJSON: "e30", authenticatorData: "AAAA", signature: "AAAA" };

/** An OIDC provider of the fixtures' organization, as the SSO settings register one. */
const ssoProvider = (f: Fixtures) => ({
  providerId: "acme",
  issuer: "https://id.example.test",
  domain: "example.test",
  organizationId: f.organizationId,
  oidcConfig: { clientId: "atrium" },
});

const validSignUp = () => {
  const { name, email, password, username } = buildUser();
  return { name, email, password, username };
};

const CASES: Record<string, PathCases> = {
  "/sign-up/email": {
    tooLong: { body: () => ({ ...validSignUp(), name: long(101) }), message: atMost("name", 100) },
    malformed: {
      body: () => ({ ...validSignUp(), email: "not-an-email" }),
      message: "email: Enter a valid e-mail address",
    },
    more: [
      { body: () => ({ ...validSignUp(), name: `${" ".repeat(200_000)}Padded` }), message: atMost("name", 100) },
      {
        body: () => ({ ...validSignUp(), image: "javascript:alert(1)" }),
        message: "image: Enter a full URL, starting with https://",
      },
      { body: () => ({ ...validSignUp(), displayUsername: long(101) }), message: atMost("displayUsername", 100) },
      { body: () => ({ ...validSignUp(), role: "admin" }), message: "role: Unknown field" },
    ],
  },
  "/sign-in/email": {
    tooLong: { body: () => ({ email: ADMIN_EMAIL, password: long(129) }), message: atMost("password", 128) },
    malformed: {
      body: () => ({ email: ADMIN_EMAIL, password: 12345678 }),
      message: typeError("password", "string", "number"),
    },
    more: [{ body: () => ({ email: longEmail, password: "whatever-password" }), message: atMost("email", 254) }],
  },
  "/sign-in/username": {
    tooLong: { body: () => ({ username: "someone", password: long(129) }), message: atMost("password", 128) },
    malformed: {
      body: () => ({ username: 12345, password: "whatever-password" }),
      message: typeError("username", "string", "number"),
    },
  },
  "/sign-in/social": {
    tooLong: {
      body: () => ({ provider: "github", callbackURL: `/${long(2048)}` }),
      message: atMost("callbackURL", 2048),
    },
    malformed: {
      body: () => ({ provider: "github", disableRedirect: "yes" }),
      message: typeError("disableRedirect", "boolean", "string"),
    },
  },
  "/link-social": {
    tooLong: { body: () => ({ provider: long(256) }), message: atMost("provider", 255) },
    malformed: {
      body: () => ({ provider: "github", scopes: "email" }),
      message: typeError("scopes", "array", "string"),
    },
  },
  "/unlink-account": {
    tooLong: { body: () => ({ accountId: long(256) }), message: atMost("accountId", 255) },
    malformed: { body: () => ({ accountId: 5 }), message: typeError("accountId", "string", "number") },
  },
  "/get-access-token": {
    tooLong: { body: () => ({ accountId: long(256) }), message: atMost("accountId", 255) },
    malformed: {
      body: () => ({ useAccountCookie: "yes" }),
      message: "body: Send accountId, or useAccountCookie: true",
    },
  },
  "/refresh-token": {
    tooLong: { body: () => ({ accountId: "account", userId: long(256) }), message: atMost("userId", 255) },
    malformed: { body: () => ({}), message: "body: Send accountId, or useAccountCookie: true" },
  },
  "/callback/:id": {
    tooLong: { body: () => ({ code: long(8193), state: "state" }), message: atMost("code", 8192) },
    malformed: { body: () => ({ code: "code", state: 5 }), message: typeError("state", "string", "number") },
  },
  "/sign-out": {
    tooLong: { body: () => ({ callbackURL: `/${long(2048)}` }), message: atMost("callbackURL", 2048) },
    malformed: { body: () => ({ disableRedirect: "no" }), message: typeError("disableRedirect", "boolean", "string") },
  },
  "/update-user": {
    tooLong: { body: () => ({ name: long(101) }), message: atMost("name", 100) },
    malformed: {
      body: () => ({ image: "javascript:alert(1)" }),
      message: "image: Enter a full URL, starting with https://",
    },
    more: [{ body: () => ({ name: "Renamed", email: "new@example.test" }), message: "email: Unknown field" }],
  },
  "/update-session": {
    tooLong: {
      body: (f) => ({ activeOrganizationId: `${f.organizationId}${long(300)}` }),
      message: "activeOrganizationId: Unknown field",
    },
    malformed: noBodyCases.malformed,
  },
  "/change-password": {
    tooLong: {
      body: () => ({ currentPassword: long(129), newPassword: buildUser().password }),
      message: atMost("currentPassword", 128),
    },
    malformed: {
      body: () => ({
        currentPassword: "current-password",
        newPassword: buildUser().password,
        revokeOtherSessions: "no",
      }),
      message: typeError("revokeOtherSessions", "boolean", "string"),
    },
  },
  "/change-email": {
    tooLong: { body: () => ({ newEmail: longEmail }), message: atMost("newEmail", 254) },
    malformed: { body: () => ({ newEmail: "nope" }), message: "newEmail: Enter a valid e-mail address" },
  },
  "/verify-password": {
    tooLong: { body: () => ({ password: long(129) }), message: atMost("password", 128) },
    malformed: { body: () => ({ password: 5 }), message: typeError("password", "string", "number") },
  },
  "/request-password-reset": {
    tooLong: { body: () => ({ email: longEmail, redirectTo: "/reset-password" }), message: atMost("email", 254) },
    malformed: {
      body: () => ({ email: "not-an-email", redirectTo: "/reset-password" }),
      message: "email: Enter a valid e-mail address",
    },
    more: [{ body: () => ({ email: ADMIN_EMAIL, redirectTo: `/${long(2048)}` }), message: atMost("redirectTo", 2048) }],
  },
  "/reset-password": {
    tooLong: { body: () => ({ token: long(8193), newPassword: buildUser().password }), message: atMost("token", 8192) },
    malformed: {
      body: () => ({ token: "token", newPassword: 12 }),
      message: typeError("newPassword", "string", "number"),
    },
  },
  "/send-verification-email": {
    tooLong: { body: () => ({ email: longEmail }), message: atMost("email", 254) },
    malformed: { body: () => ({ email: [ADMIN_EMAIL] }), message: typeError("email", "string", "array") },
  },
  "/delete-user": {
    tooLong: { body: () => ({ password: long(129) }), message: atMost("password", 128) },
    malformed: { body: () => ({ token: 5 }), message: typeError("token", "string", "number") },
  },
  "/is-username-available": {
    // The spec fixes the answer to a username over 30 characters, however long: 422 "username is too long".
    tooLong: {
      body: () => ({ username: long(10_000) }),
      status: 422,
      code: "USERNAME_TOO_LONG",
      message: "username is too long",
    },
    malformed: { body: () => ({ username: { $ne: null } }), message: typeError("username", "string", "object") },
  },
  "/revoke-session": {
    tooLong: { body: () => ({ token: long(8193) }), message: atMost("token", 8192) },
    malformed: { body: () => ({ token: 5 }), message: typeError("token", "string", "number") },
  },
  "/revoke-sessions": noBodyCases,
  "/revoke-other-sessions": noBodyCases,

  "/passkey/verify-registration": {
    tooLong: {
      body: () => ({ response: credential({ clientDataJSON: "e30", attestationObject: "o" }), name: long(101) }),
      message: atMost("name", 100),
    },
    malformed: {
      body: () => ({ response: credential({ clientDataJSON: "not base64url!", attestationObject: "o" }) }),
      message: "response.response.clientDataJSON: Use base64url",
    },
    more: [
      {
        body: () => ({ response: credential({ clientDataJSON: "e30", attestationObject: "o" }), createSession: true }),
        message: "createSession: Unknown field",
      },
    ],
  },
  "/passkey/verify-authentication": {
    tooLong: {
      body: () => ({ response: { ...credential(assertion), id: long(8193) } }),
      message: atMost("response.id", 8192),
    },
    malformed: { body: () => ({ response: "x" }), message: typeError("response", "object", "string") },
  },
  "/passkey/update-passkey": {
    tooLong: { body: () => ({ id: "some-passkey", name: long(101) }), message: atMost("name", 100) },
    malformed: { body: () => ({ id: 5, name: "Laptop" }), message: typeError("id", "string", "number") },
  },
  "/passkey/delete-passkey": {
    tooLong: { body: () => ({ id: long(256) }), message: atMost("id", 255) },
    malformed: { body: () => ({ id: null }), message: typeError("id", "string", "null") },
  },

  // Second factors: the signed-in admin has none, so a well-formed body would be the plugin's to refuse.
  "/two-factor/enable": {
    tooLong: { body: () => ({ password: long(129) }), message: atMost("password", 128) },
    malformed: { body: () => ({ password: "pass-word-1", issuer: "Evil" }), message: "issuer: Unknown field" },
  },
  "/two-factor/disable": {
    tooLong: { body: () => ({ password: long(129) }), message: atMost("password", 128) },
    malformed: { body: () => ({ password: 12 }), message: typeError("password", "string", "number") },
  },
  "/two-factor/generate-backup-codes": {
    tooLong: { body: () => ({ password: long(129) }), message: atMost("password", 128) },
    malformed: { body: () => ({}), message: typeError("password", "string", "undefined") },
  },
  "/two-factor/get-totp-uri": {
    tooLong: { body: () => ({ password: long(129) }), message: atMost("password", 128) },
    malformed: { body: () => ({ password: null }), message: typeError("password", "string", "null") },
  },
  "/two-factor/verify-totp": {
    tooLong: { body: () => ({ code: long(65) }), message: atMost("code", 64) },
    malformed: { body: () => ({ code: 123456 }), message: typeError("code", "string", "number") },
  },
  "/two-factor/verify-backup-code": {
    tooLong: { body: () => ({ code: long(65) }), message: atMost("code", 64) },
    malformed: {
      body: () => ({ code: "abc", trustDevice: "yes" }),
      message: typeError("trustDevice", "boolean", "string"),
    },
  },
  "/two-factor/send-otp": {
    tooLong: { body: () => ({ trustDevice: true, note: long(300) }), message: "note: Unknown field" },
    malformed: { body: () => ({ trustDevice: 1 }), message: typeError("trustDevice", "boolean", "number") },
  },
  "/two-factor/verify-otp": {
    tooLong: { body: () => ({ code: long(65) }), message: atMost("code", 64) },
    malformed: { body: () => ({ code: [] }), message: typeError("code", "string", "array") },
  },

  "/organization/create": {
    tooLong: { body: () => ({ name: long(101), slug: `org-${randomSuffix()}` }), message: atMost("name", 100) },
    malformed: {
      body: () => ({ name: "Not A Slug", slug: "Not A Slug" }),
      message: "slug: Use lower-case letters, digits and single dashes",
    },
    more: [
      {
        body: () => ({ name: "Spaced", slug: ` org-${randomSuffix()} ` }),
        message: "slug: Use lower-case letters, digits and single dashes",
      },
      { body: () => ({ name: "Long slug", slug: `org-${long(60)}` }), message: atMost("slug", 48) },
      {
        body: () => ({ name: "Logo", slug: `org-${randomSuffix()}`, logo: "not a url" }),
        message: "logo: Enter a full URL, starting with https://",
      },
    ],
  },
  "/organization/update": {
    tooLong: {
      body: (f) => ({ organizationId: f.organizationId, data: { name: long(101) } }),
      message: atMost("data.name", 100),
    },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, data: { logo: "ftp://files.example.test/logo.png" } }),
      message: "data.logo: Enter a full URL, starting with https://",
    },
  },
  "/organization/check-slug": {
    tooLong: { body: () => ({ slug: `org-${long(60)}` }), message: atMost("slug", 48) },
    malformed: { body: () => ({ slug: 5 }), message: typeError("slug", "string", "number") },
  },
  "/organization/delete": {
    tooLong: {
      body: (f) => ({ organizationId: `${f.organizationId}${long(300)}` }),
      message: atMost("organizationId", 255),
    },
    malformed: { body: () => ({ organizationId: 5 }), message: typeError("organizationId", "string", "number") },
  },
  "/organization/set-active": {
    tooLong: {
      body: (f) => ({ organizationId: `${f.organizationId}${long(300)}` }),
      message: atMost("organizationId", 255),
    },
    malformed: {
      body: () => ({ organizationSlug: "Not A Slug" }),
      message: "organizationSlug: Use lower-case letters, digits and single dashes",
    },
  },
  "/organization/has-permission": {
    tooLong: {
      body: (f) => ({ organizationId: f.organizationId, permissions: { team: [long(256)] } }),
      message: atMost("permissions.team.0", 255),
    },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, permissions: "all" }),
      message: typeError("permissions", "record", "string"),
    },
    more: [
      {
        body: (f) => ({
          organizationId: f.organizationId,
          permission: { team: ["create"] },
          permissions: { team: ["create"] },
        }),
        message: "body: Send either permission or permissions: a map of resource to actions",
      },
    ],
  },
  "/organization/invite-member": {
    tooLong: {
      body: (f) => ({ organizationId: f.organizationId, email: longEmail, role: "member" }),
      message: atMost("email", 254),
    },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, email: "invitee@example.test", role: "boss" }),
      message: "role: Use one or more of: owner, admin, member",
    },
  },
  "/organization/accept-invitation": {
    tooLong: { body: (f) => ({ invitationId: `${f.invitationId}${long(300)}` }), message: atMost("invitationId", 255) },
    malformed: { body: () => ({ invitationId: 5 }), message: typeError("invitationId", "string", "number") },
  },
  "/organization/reject-invitation": {
    tooLong: { body: (f) => ({ invitationId: `${f.invitationId}${long(300)}` }), message: atMost("invitationId", 255) },
    malformed: { body: () => ({ invitationId: null }), message: typeError("invitationId", "string", "null") },
  },
  "/organization/cancel-invitation": {
    tooLong: { body: (f) => ({ invitationId: `${f.invitationId}${long(300)}` }), message: atMost("invitationId", 255) },
    malformed: { body: () => ({ invitationId: ["a"] }), message: typeError("invitationId", "string", "array") },
  },
  "/organization/remove-member": {
    tooLong: {
      body: (f) => ({ organizationId: f.organizationId, memberIdOrEmail: long(256) }),
      message: atMost("memberIdOrEmail", 255),
    },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, memberIdOrEmail: 5 }),
      message: typeError("memberIdOrEmail", "string", "number"),
    },
  },
  "/organization/update-member-role": {
    tooLong: {
      body: (f) => ({ organizationId: f.organizationId, memberId: long(256), role: "admin" }),
      message: atMost("memberId", 255),
    },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, memberId: f.memberId, role: 5 }),
      message: "role: Use one or more of: owner, admin, member",
    },
  },
  "/organization/leave": {
    tooLong: {
      body: (f) => ({ organizationId: `${f.organizationId}${long(300)}` }),
      message: atMost("organizationId", 255),
    },
    malformed: { body: () => ({ organizationId: null }), message: typeError("organizationId", "string", "null") },
  },
  "/organization/create-team": {
    tooLong: { body: (f) => ({ organizationId: f.organizationId, name: long(101) }), message: atMost("name", 100) },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, name: ["Team"] }),
      message: typeError("name", "string", "array"),
    },
  },
  "/organization/update-team": {
    tooLong: {
      body: (f) => ({ teamId: f.teamId, data: { name: long(101), organizationId: f.organizationId } }),
      message: atMost("data.name", 100),
    },
    malformed: { body: (f) => ({ teamId: f.teamId, data: "Renamed" }), message: typeError("data", "object", "string") },
  },
  "/organization/remove-team": {
    tooLong: { body: (f) => ({ organizationId: f.organizationId, teamId: long(256) }), message: atMost("teamId", 255) },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, teamId: 5 }),
      message: typeError("teamId", "string", "number"),
    },
  },
  "/organization/set-active-team": {
    tooLong: { body: () => ({ teamId: long(256) }), message: atMost("teamId", 255) },
    malformed: { body: () => ({ teamId: 5 }), message: typeError("teamId", "string", "number") },
  },
  "/organization/add-team-member": {
    tooLong: {
      body: (f) => ({ organizationId: f.organizationId, teamId: f.teamId, userId: long(256) }),
      message: atMost("userId", 255),
    },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, teamId: f.teamId, userId: 5 }),
      message: typeError("userId", "string", "number"),
    },
  },
  "/organization/remove-team-member": {
    tooLong: {
      body: (f) => ({ organizationId: f.organizationId, teamId: long(256), userId: f.userId }),
      message: atMost("teamId", 255),
    },
    malformed: {
      body: (f) => ({ organizationId: f.organizationId, teamId: f.teamId, userId: {} }),
      message: typeError("userId", "string", "object"),
    },
  },

  "/admin/set-role": {
    tooLong: { body: () => ({ userId: long(256), role: "admin" }), message: atMost("userId", 255) },
    malformed: { body: (f) => ({ userId: f.userId, role: "root" }), message: "role: Use one or more of: admin, user" },
  },
  "/admin/create-user": {
    tooLong: {
      body: () => ({ name: long(101), email: buildUser().email, password: buildUser().password }),
      message: atMost("name", 100),
    },
    malformed: {
      body: () => ({ name: "Created", email: "not-an-email", password: buildUser().password }),
      message: "email: Enter a valid e-mail address",
    },
    more: [
      {
        body: () => ({ name: "Created", email: buildUser().email, password: "short" }),
        message: "password: Use at least 8 characters",
      },
    ],
  },
  "/admin/update-user": {
    tooLong: { body: (f) => ({ userId: f.userId, data: { name: long(101) } }), message: atMost("data.name", 100) },
    malformed: {
      body: (f) => ({ userId: f.userId, data: { banned: "yes" } }),
      message: typeError("data.banned", "boolean", "string"),
    },
    more: [
      {
        body: (f) => ({ userId: f.userId, data: { password: "new-password" } }),
        message: "data.password: Unknown field",
      },
    ],
  },
  "/admin/list-user-sessions": {
    tooLong: { body: () => ({ userId: long(256) }), message: atMost("userId", 255) },
    malformed: { body: () => ({ userId: 5 }), message: typeError("userId", "string", "number") },
  },
  "/admin/unban-user": {
    tooLong: { body: () => ({ userId: long(256) }), message: atMost("userId", 255) },
    malformed: { body: () => ({ userId: true }), message: typeError("userId", "string", "boolean") },
  },
  "/admin/ban-user": {
    tooLong: { body: (f) => ({ userId: f.userId, banReason: long(501) }), message: atMost("banReason", 500) },
    malformed: {
      body: (f) => ({ userId: f.userId, banReason: "Spam", banExpiresIn: "7d" }),
      message: typeError("banExpiresIn", "number", "string"),
    },
    more: [
      {
        body: (f) => ({ userId: f.userId, banReason: "Spam", banExpiresIn: 1e15 }),
        message: "banExpiresIn: Use at most 3153600000 seconds",
      },
    ],
  },
  "/admin/impersonate-user": {
    tooLong: { body: () => ({ userId: long(256), reason: "Support ticket" }), message: atMost("userId", 255) },
    malformed: {
      body: () => ({ userId: 5, reason: "Support ticket" }),
      message: typeError("userId", "string", "number"),
    },
  },
  "/admin/stop-impersonating": noBodyCases,
  "/admin/revoke-user-session": {
    tooLong: { body: () => ({ sessionToken: long(8193) }), message: atMost("sessionToken", 8192) },
    malformed: { body: () => ({ sessionToken: 5 }), message: typeError("sessionToken", "string", "number") },
  },
  "/admin/revoke-user-sessions": {
    tooLong: { body: () => ({ userId: long(256) }), message: atMost("userId", 255) },
    malformed: { body: () => ({ userId: 5 }), message: typeError("userId", "string", "number") },
  },
  "/admin/remove-user": {
    tooLong: { body: () => ({ userId: long(256) }), message: atMost("userId", 255) },
    malformed: { body: () => ({ userId: 5 }), message: typeError("userId", "string", "number") },
  },
  "/admin/set-user-password": {
    tooLong: { body: () => ({ userId: long(256), newPassword: buildUser().password }), message: atMost("userId", 255) },
    malformed: {
      body: (f) => ({ userId: f.userId, newPassword: 12345678 }),
      message: typeError("newPassword", "string", "number"),
    },
  },
  "/admin/has-permission": {
    tooLong: {
      body: () => ({ permissions: { [long(256)]: ["list"] } }),
      message: "permissions (key): Use at most 255 characters",
    },
    malformed: { body: () => ({ permissions: [] }), message: typeError("permissions", "record", "array") },
    more: [{ body: () => ({}), message: "body: Send either permission or permissions: a map of resource to actions" }],
  },

  // Enterprise SSO (@better-auth/sso): the admin owns the fixtures' organization, so a body let through would register.
  "/sso/register": {
    tooLong: {
      body: (f) => ({ ...ssoProvider(f), providerId: long(41) }),
      message: atMost("providerId", 40),
    },
    malformed: {
      body: (f) => ({ ...ssoProvider(f), domain: "not a domain" }),
      message: "domain: Enter a domain name such as example.com",
    },
    more: [
      {
        body: (f) => ({ ...ssoProvider(f), issuer: "javascript:alert(1)" }),
        message: "issuer: Enter an absolute http(s) URL",
      },
      {
        body: (f) => ({ ...ssoProvider(f), oidcConfig: { clientId: long(8193) } }),
        message: atMost("oidcConfig.clientId", 8192),
      },
      {
        body: (f) => ({ ...ssoProvider(f), samlConfig: { entryPoint: "https://idp.example/sso" } }),
        message: "oidcConfig: Send either oidcConfig or samlConfig",
      },
    ],
  },
  "/sso/update-provider": {
    tooLong: { body: () => ({ providerId: long(256) }), message: atMost("providerId", 255) },
    malformed: { body: () => ({ providerId: "acme", domain: 5 }), message: typeError("domain", "string", "number") },
  },
  "/sso/delete-provider": {
    tooLong: { body: () => ({ providerId: long(256) }), message: atMost("providerId", 255) },
    malformed: { body: () => ({ providerId: null }), message: typeError("providerId", "string", "null") },
  },
  "/sso/request-domain-verification": {
    tooLong: { body: () => ({ providerId: long(256) }), message: atMost("providerId", 255) },
    malformed: { body: () => ({ providerId: ["acme"] }), message: typeError("providerId", "string", "array") },
  },
  "/sso/verify-domain": {
    tooLong: { body: () => ({ providerId: long(256) }), message: atMost("providerId", 255) },
    malformed: { body: () => ({ providerId: "acme", domain: "x" }), message: "domain: Unknown field" },
  },
  "/sign-in/sso": {
    tooLong: { body: () => ({ email: longEmail, callbackURL: "/" }), message: atMost("email", 254) },
    malformed: { body: () => ({ email: "a@example.test" }), message: typeError("callbackURL", "string", "undefined") },
  },
  "/sso/saml2/sp/acs/:providerId": {
    tooLong: { body: () => ({ SAMLResponse: long(100_001) }), message: atMost("SAMLResponse", 100000) },
    malformed: {
      body: () => ({ SAMLResponse: "x", RelayState: 5 }),
      message: typeError("RelayState", "string", "number"),
    },
  },
  "/sso/saml2/sp/slo/:providerId": {
    tooLong: { body: () => ({ SAMLRequest: long(100_001) }), message: atMost("SAMLRequest", 100000) },
    malformed: { body: () => ({ SAMLRequest: 5 }), message: typeError("SAMLRequest", "string", "number") },
  },
  "/sso/saml2/logout/:providerId": {
    tooLong: { body: () => ({ callbackURL: `/${long(2048)}` }), message: atMost("callbackURL", 2048) },
    malformed: { body: () => ({ callbackURL: "/", everywhere: true }), message: "everywhere: Unknown field" },
  },
};

function randomSuffix(): string {
  return buildUser().username.slice(-8);
}

/** The request path of a better-auth path (its parameter filled in). */
const requestPath = (path: string) => `/api/auth${path.replace(":id", "github")}`;

let app: TestApp;
let admin: TestUser;
let fixtures: Fixtures;

beforeAll(async () => {
  app = await createTestApp({ env: { ADMIN_EMAILS: ADMIN_EMAIL } });
  admin = await createVerifiedUser(app, { email: ADMIN_EMAIL });
  const other = await createVerifiedUser(app);
  const created = await readJson<{ id: string }>(
    await admin.client.post("/api/auth/organization/create", {
      name: "Validation",
      slug: `validation-${randomSuffix()}`,
    }),
  );
  const team = await readJson<{ id: string }>(
    await admin.client.post("/api/auth/organization/create-team", { name: "Team", organizationId: created.id }),
  );
  const invitation = await readJson<{ id: string }>(
    await admin.client.post("/api/auth/organization/invite-member", {
      email: other.input.email,
      role: "member",
      organizationId: created.id,
    }),
  );
  const member = await readJson<{ id: string }>(
    await admin.client.get(`/api/auth/organization/get-active-member?organizationId=${created.id}`),
  );
  fixtures = {
    organizationId: created.id,
    teamId: team.id,
    invitationId: invitation.id,
    memberId: member.id,
    userId: other.id,
  };
  for (const [name, value] of Object.entries(fixtures))
    if (typeof value !== "string") throw new Error(`fixture ${name} was not created`);
});

afterAll(async () => {
  await app?.close();
});

/**
 * Everything a request could have stored: every table's rows (mail as a count, since the outbox worker
 * updates its rows on its own); rate-limit counters are expected to move.
 */
async function snapshotDatabase(): Promise<Record<string, unknown>> {
  const { db } = app.services.database;
  const tables = (await db.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => !/^(rateLimit|kysely_|dev_mailbox)/.test(name));
  const snapshot: Record<string, unknown> = {};
  for (const table of tables.sort()) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db);
    snapshot[table] = table === "mail_outbox" ? rows.length : rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}

describe("the better-auth table", () => {
  test("has an entry for every POST endpoint the auth instance exposes, and for nothing else", () => {
    type Endpoint = { path?: string; options?: { method?: string | string[]; body?: unknown } };
    // An endpoint that also answers GET and declares no body (get-session) takes none on POST either.
    const takesPostBody = ({ options }: Endpoint) => {
      const methods = [options?.method].flat();
      return methods.includes("POST") && (options?.body !== undefined || methods.length === 1);
    };
    const exposed = Object.values(app.services.auth.api as Record<string, Endpoint>)
      .filter((endpoint) => endpoint.path && takesPostBody(endpoint))
      .map((endpoint) => endpoint.path!);
    expect(Object.keys(REQUEST_BODY_SCHEMAS).sort()).toEqual([...new Set(exposed)].sort());
  });

  test("every entry has a too-long and a malformed case below", () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(REQUEST_BODY_SCHEMAS).sort());
  });

  const cases = Object.entries(CASES).flatMap(([path, { tooLong, malformed, more = [] }]) => [
    { path, label: "too long", ...tooLong },
    { path, label: "malformed", ...malformed },
    ...more.map((extra, index) => ({ path, label: `more #${index + 1}`, ...extra })),
  ]);

  test.each(cases)(
    "$path ($label) answers $message, stores nothing",
    async ({ path, body, message, status = 400, code = "VALIDATION_ERROR" }) => {
      const before = await snapshotDatabase();
      // A fresh address for each request: the sign-in and sign-up limits are 10 a minute per address.
      const response = await admin.client.post(requestPath(path), body(fixtures), { ip: randomIp() });
      expect({ status: response.status, body: await readJson(response) }).toEqual({
        status,
        body: { code, message, requestId: expect.any(String) },
      });
      expect(await snapshotDatabase()).toEqual(before);
    },
  );

  test("a too-long name on an anonymous sign-up creates no user and sends no mail", async () => {
    const input = { ...validSignUp(), name: long(101) };
    const response = await createClient(app).post("/api/auth/sign-up/email", input);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({
      code: "VALIDATION_ERROR",
      message: atMost("name", 100),
      requestId: expect.any(String),
    });
    const { db } = app.services.database;
    expect(await db.selectFrom("user").select("id").where("email", "=", input.email).execute()).toEqual([]);
    expect(await db.selectFrom("mail_outbox").select("id").where("to_address", "=", input.email).execute()).toEqual([]);
  });

  test.each(["null", "5", '"text"', "[]"])("a JSON body that is not an object (%s) is refused", async (raw) => {
    const response = await createClient(app).request("/api/auth/sign-out", { method: "POST", json: raw });
    expect(response.status).toBe(400);
    expect(await readJson(response)).toMatchObject({
      code: "VALIDATION_ERROR",
      message: expect.stringMatching(/^body: Invalid input: expected object, received /),
    });
  });

  test("the bodies the forms send are accepted", async () => {
    const client = createClient(app);
    expect((await client.post("/api/auth/sign-up/email", { ...validSignUp(), callbackURL: "/" })).status).toBe(200);
    const profile = await admin.client.post("/api/auth/update-user", {
      name: "  Admin  ",
      image: "https://images.example.test/a.png",
    });
    expect(profile.status).toBe(200);
    const update = await admin.client.post("/api/auth/organization/update", {
      organizationId: fixtures.organizationId,
      data: { name: "Validation", slug: `validation-${randomSuffix()}`, logo: undefined, metadata: {} },
    });
    expect(update.status).toBe(200);
    const roles = await admin.client.post("/api/auth/organization/has-permission", {
      organizationId: fixtures.organizationId,
      permissions: { team: ["create"] },
    });
    expect(await readJson(roles)).toMatchObject({ success: true });
  });
});

describe("the app's own routes", () => {
  const longId = long(256);

  test.each([
    {
      label: "members of a too-long organization id",
      path: () => `/api/organizations/${longId}/members`,
      message: atMost("organizationId", 255),
    },
    {
      label: "teams of a too-long organization id",
      path: () => `/api/organizations/${longId}/teams`,
      message: atMost("organizationId", 255),
    },
    {
      label: "members with a too-long search",
      path: (f: Fixtures) => `/api/organizations/${f.organizationId}/members?search=${long(201)}`,
      message: "search: Too big: expected string to have <=200 characters",
    },
    {
      label: "members with a limit that is not a number",
      path: (f: Fixtures) => `/api/organizations/${f.organizationId}/members?limit=many`,
      message: "limit: Invalid input: expected number, received NaN",
    },
    {
      label: "members with a negative offset",
      path: (f: Fixtures) => `/api/organizations/${f.organizationId}/members?offset=-1`,
      message: "offset: Too small: expected number to be >=0",
    },
    {
      label: "a too-long invitation id",
      path: () => `/api/invitations/${longId}`,
      message: atMost("invitationId", 255),
    },
  ])("GET $label answers 400 $message", async ({ path, message }) => {
    const response = await admin.client.get(path(fixtures));
    expect({ status: response.status, body: await readJson(response) }).toMatchObject({
      status: 400,
      body: { code: "VALIDATION_ERROR", message },
    });
  });

  test("well-formed requests still answer", async () => {
    expect((await admin.client.get(`/api/organizations/${fixtures.organizationId}/members?limit=5`)).status).toBe(200);
    expect((await admin.client.get(`/api/organizations/${fixtures.organizationId}/teams`)).status).toBe(200);
    expect(await readJson(await admin.client.get(`/api/invitations/${fixtures.invitationId}`))).toMatchObject({
      state: "pending",
    });
  });
});

describe("validate('json')", () => {
  const probe = new Hono()
    .onError(createAppErrorHandler(createLogger("silent")))
    .post("/", validate("json", z.strictObject({ name: nameSchema })), (c) => c.json(c.req.valid("json")));
  const send = (body: string, contentType = "application/json") =>
    probe.request("/", { method: "POST", body, headers: { "content-type": contentType } });

  test("hands the handler the parsed body", async () => {
    const response = await send(JSON.stringify({ name: " Ada " }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ name: "Ada" });
  });

  test.each([
    {
      label: "a too-long value",
      body: JSON.stringify({ name: long(101) }),
      status: 400,
      code: "VALIDATION_ERROR",
      message: atMost("name", 100),
    },
    {
      label: "a wrong type",
      body: JSON.stringify({ name: 5 }),
      status: 400,
      code: "VALIDATION_ERROR",
      message: typeError("name", "string", "number"),
    },
    {
      label: "broken JSON",
      body: '{"name": ',
      status: 400,
      code: "INVALID_JSON",
      message: "The request body is not valid JSON",
    },
  ])("refuses $label with $status $code", async ({ body, status, code, message }) => {
    const response = await send(body);
    expect({ status: response.status, body: await response.json() }).toMatchObject({ status, body: { code, message } });
  });

  test("refuses a body that is not JSON with 415", async () => {
    const response = await send("name=Ada", "application/x-www-form-urlencoded");
    expect({ status: response.status, body: await response.json() }).toMatchObject({
      status: 415,
      body: { code: "UNSUPPORTED_MEDIA_TYPE" },
    });
  });
});
