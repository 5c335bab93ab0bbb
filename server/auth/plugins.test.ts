import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "../db/schema";
import type { Billing } from "../modules/billing";
import { authMailNotices, type MailQueue } from "../modules/mail";
import { authPlugins, type AuthPluginConfig } from "./plugins";
import { socialSignIn } from "./social-sign-in";

/** A Kysely instance that never connects: building the plugins queries nothing. */
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new SqliteIntrospector(kysely),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

describe("authPlugins", () => {
  it("lists better-auth's plugins in the order their hooks and options depend on", () => {
    const config: AuthPluginConfig = {
      baseUrl: "http://localhost:3000",
      authSecret: "a-test-secret-of-at-least-32-characters",
      organizations: { whoMayCreate: "everyone", isDeletionDisabled: false },
      adminUserIds: [],
      adminEmails: [],
      socialProviders: [],
    };
    const mail: MailQueue = { enqueue: async () => {} };
    const plugins = authPlugins(
      config,
      {
        db,
        billing: { assertWithinLimit: async () => {}, releaseOrganization: async () => {} } as unknown as Billing,
        dnsLookup: async () => [],
      },
      {
        mailNotices: authMailNotices(mail, {
          baseUrl: "http://localhost",
          signInKind: async () => "none",
          emailChangeOf: () => undefined,
        }),
        social: socialSignIn(config),
      },
    );

    expect(plugins.map((plugin) => plugin.id)).toEqual([
      "fresh-authentication",
      "account-rules",
      "email-change",
      "generic-oauth",
      "sign-in-methods",
      "unconfirmed-provider-email",
      "username",
      "two-factor",
      "two-factor-rules",
      "passkey",
      "passkey-rules",
      "organization",
      "organization-rules",
      "sso",
      "sso-rules",
      "admin",
      "platform-admin-rules",
      "account-deletion",
      "platform-role-default",
      "admin-emails",
      "mail-notices",
      "spec-errors",
    ]);
  });
});
