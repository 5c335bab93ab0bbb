import pg from "pg";
import { buildUser, type UserInput } from "./factories";
import { createClient, type RequestTarget } from "./request";

/**
 * Users who can sign in with their password: signed up through `target` (a real server process), then their e-mail
 * marked verified in its PostgreSQL database (`databaseUrl`), as following the verification link would.
 */
export async function signUpVerifiedUsers(
  target: RequestTarget,
  databaseUrl: string,
  count: number,
  label = "Steady",
): Promise<UserInput[]> {
  const users = Array.from({ length: count }, () => buildUser({ label }));
  for (const user of users) {
    const response = await createClient(target).post("/api/auth/sign-up/email", user);
    if (response.status !== 200) throw new Error(`sign-up: ${response.status} ${JSON.stringify(response.data)}`);
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE "user" SET "emailVerified" = true WHERE email = ANY($1)`, [
      users.map((user) => user.email),
    ]);
  } finally {
    await client.end();
  }
  return users;
}
