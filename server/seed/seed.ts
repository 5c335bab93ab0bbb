import { createApp } from "../app";
import { createAuth } from "../auth/auth";
import type { RateLimitStore } from "../http/rate-limit-store";
import { loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { createReadCache } from "../db/read-cache";
import { createLogger } from "../logger";
import { createBillingService } from "../services";
import { createSeedClient, type SeedClient, type SeedTarget } from "./seed-client";
import { createTxtLookup } from "../modules/sso";

/**
 * `npm run db:seed`: demo data for a development database, safe to run again (existing rows are kept).
 * A platform admin who owns the "Acme" organization, and a member of it. Refuses to run in production.
 *
 * The rows are made through the app's own HTTP API in process, the way a browser makes them (sign-up, a new
 * organization, an invitation accepted), so every rule and hook of the product applies: the database, the auth
 * instance and the app, nothing else (no mail, no Redis, no billing sandbox). No test helper is used.
 */
const DEMO_PASSWORD = "atrium-demo-password";
const ORGANIZATION = { name: "Acme", slug: "acme" };
const PEOPLE = [
  {
    name: "Ada Admin",
    email: "admin@atrium.localhost",
    username: "ada",
    role: "admin" as const,
    organizationRole: "owner" as const,
  },
  {
    name: "Max Member",
    email: "member@atrium.localhost",
    username: "max",
    role: "user" as const,
    organizationRole: "member" as const,
  },
];
type Person = (typeof PEOPLE)[number];

const config = loadConfig();
if (config.isProduction) {
  process.stderr.write(
    "db:seed writes demo accounts with a known password; it does not run with NODE_ENV=production.\n",
  );
  process.exit(1);
}
const logger = createLogger("warn");
const database = openDatabase(config.database);
const { db } = database;

/** The seed's few requests come from one in-process client: no limit to count them against. */
const unlimited: RateLimitStore = { consume: async () => ({ allowed: true, retryAfter: null }) };
const unlimitedKeys = { tryTake: () => true, take: async () => ({ allowed: true, retryAfter: null }) as const };
/** Nobody reads the demo addresses: they are verified below, and the member accepts the invitation through the API, not its mail. */
const noMail: Parameters<typeof createAuth>[0]["mail"] = { enqueue: async () => undefined };

let stopReadCache = async () => undefined as void;
try {
  await migrateToLatest(db, { authSecret: config.authSecret });
  // Seeding adds a handful of people: the plan limits apply, the provider is never called.
  const billing = createBillingService({ ...config, billing: null }, db, logger, () => undefined);
  const auth = createAuth({
    config,
    db,
    dialect: database.dialect,
    mail: noMail,
    logger,
    rateLimitStore: unlimited,
    billing,
    // The seed verifies no SSO domain: the configured resolvers, never asked.
    dnsLookup: createTxtLookup(config.dns.servers),
  });
  const readCache = createReadCache(db, { logger });
  stopReadCache = () => readCache.stop();
  const deps = {
    config,
    database,
    auth,
    billing,
    billingWorker: { nudge: () => undefined },
    webhookWorker: { nudge: () => undefined },
    mail: noMail,
    readCache,
    logger,
    rateLimitStore: unlimited,
    apiKeyRateLimiter: unlimitedKeys,
  };
  const target: SeedTarget = { app: createApp(deps), baseUrl: config.baseUrl };

  const userIds = new Map<Person, string>();
  for (const person of PEOPLE) {
    let user = await db.selectFrom("user").select("id").where("email", "=", person.email).executeTakeFirst();
    if (!user) {
      const { name, email, username } = person;
      const signedUp = await createSeedClient(target).post("/api/auth/sign-up/email", {
        name,
        email,
        username,
        password: DEMO_PASSWORD,
      });
      user = { id: (signedUp as { user: { id: string } }).user.id };
      process.stdout.write(`Created ${person.email}\n`);
    }
    // Demo accounts skip the verification mail; the platform role is data, not something a user can ask for.
    await db
      .updateTable("user")
      .set({ emailVerified: database.dialect === "sqlite" ? 1 : true, role: person.role })
      .where("id", "=", user.id)
      .execute();
    userIds.set(person, user.id);
  }

  const clients = new Map<Person, SeedClient>();
  const signedIn = async (person: Person) => {
    let client = clients.get(person);
    if (!client) {
      client = createSeedClient(target);
      await client.post("/api/auth/sign-in/email", { email: person.email, password: DEMO_PASSWORD });
      clients.set(person, client);
    }
    return client;
  };
  const owner = PEOPLE.find((person) => person.organizationRole === "owner")!;

  let organization = await db
    .selectFrom("organization")
    .select("id")
    .where("slug", "=", ORGANIZATION.slug)
    .executeTakeFirst();
  if (!organization) {
    const created = await (await signedIn(owner)).post("/api/auth/organization/create", ORGANIZATION);
    organization = { id: (created as { id: string }).id };
    process.stdout.write(`Created the organization ${ORGANIZATION.name} (/${ORGANIZATION.slug})\n`);
  }
  for (const person of PEOPLE) {
    const isMember = await db
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", organization.id)
      .where("userId", "=", userIds.get(person)!)
      .executeTakeFirst();
    if (isMember) continue;
    if (person === owner)
      throw new Error(
        `${owner.email} is no longer a member of /${ORGANIZATION.slug}: remove that organization, or start from a fresh database`,
      );
    // Invited by the owner and accepted, the way a member joins (renewing the invitation an interrupted run left).
    const invitation = await (
      await signedIn(owner)
    ).post("/api/auth/organization/invite-member", {
      email: person.email,
      role: person.organizationRole,
      organizationId: organization.id,
      resend: true,
    });
    await (
      await signedIn(person)
    ).post("/api/auth/organization/accept-invitation", { invitationId: (invitation as { id: string }).id });
    process.stdout.write(`Added ${person.email} to ${ORGANIZATION.name} as ${person.organizationRole}\n`);
  }
  process.stdout.write(
    `\nSign in at ${config.baseUrl}/sign-in with ${PEOPLE.map((person) => person.email).join(" or ")} and the password "${DEMO_PASSWORD}".\n`,
  );
} finally {
  await stopReadCache();
  await database.close();
}
