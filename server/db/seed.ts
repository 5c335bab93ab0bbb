import { loadConfig } from "../config";
import { createLogger } from "../logger";
import { createServices } from "../services";

/**
 * `npm run db:seed`: demo data for a development database, safe to run again (existing rows are kept).
 * A platform admin who owns the "Acme" organization, and a member of it. Refuses to run in production.
 */
const DEMO_PASSWORD = "atrium-demo-password";
const PEOPLE = [
  { name: "Ada Admin", email: "admin@atrium.localhost", username: "ada", role: "admin" as const, organizationRole: "owner" as const },
  { name: "Max Member", email: "member@atrium.localhost", username: "max", role: "user" as const, organizationRole: "member" as const },
];

const config = loadConfig();
if (config.isProduction) {
  process.stderr.write("db:seed writes demo accounts with a known password; it does not run with NODE_ENV=production.\n");
  process.exit(1);
}
const services = await createServices(config, createLogger("warn"));
const { auth, database } = services;
const { db } = database;

try {
  const userIds: string[] = [];
  for (const person of PEOPLE) {
    let user = await db.selectFrom("user").select("id").where("email", "=", person.email).executeTakeFirst();
    if (!user) {
      await auth.api.signUpEmail({ body: { name: person.name, email: person.email, password: DEMO_PASSWORD, username: person.username } });
      user = await db.selectFrom("user").select("id").where("email", "=", person.email).executeTakeFirstOrThrow();
      process.stdout.write(`Created ${person.email}\n`);
    }
    await db
      .updateTable("user")
      .set({ emailVerified: database.dialect === "sqlite" ? 1 : true, role: person.role })
      .where("id", "=", user.id)
      .execute();
    userIds.push(user.id);
  }

  let organization = await db.selectFrom("organization").select("id").where("slug", "=", "acme").executeTakeFirst();
  if (!organization) {
    const created = await auth.api.createOrganization({ body: { name: "Acme", slug: "acme", userId: userIds[0] } });
    organization = { id: created!.id };
    process.stdout.write("Created the organization Acme (/acme)\n");
  }
  for (const [index, person] of PEOPLE.entries()) {
    const userId = userIds[index]!;
    const isMember = await db.selectFrom("member").select("id").where("organizationId", "=", organization.id).where("userId", "=", userId).executeTakeFirst();
    if (!isMember) await auth.api.addMember({ body: { userId, organizationId: organization.id, role: person.organizationRole } });
  }
  process.stdout.write(
    `\nSign in at ${config.baseUrl}/sign-in with ${PEOPLE.map((person) => person.email).join(" or ")} and the password "${DEMO_PASSWORD}".\n`,
  );
} finally {
  await services.close();
}
