import { createClient, type RequestTarget, type TestResponse } from "./request";

/** Sign-in attempts one address may make in a minute (RATE_LIMIT_RULES["/sign-in/*"] in server/auth/auth.ts). */
export const SIGN_IN_LIMIT = 10;

/** A sign-in attempt that the rate limiter counts but that costs no password hashing (the username is too short): 422 until limited. */
export function cheapSignIn(
  target: RequestTarget,
  ip: string,
  headers?: Record<string, string>,
): Promise<TestResponse> {
  return createClient(target, ip).post(
    "/api/auth/sign-in/username",
    { username: "ab", password: "whatever-password" },
    { headers },
  );
}

/** The statuses of `attempts` cheap sign-ins in a row from one address. */
export async function signInStatuses(
  target: RequestTarget,
  ip: string,
  attempts = SIGN_IN_LIMIT,
  headers?: Record<string, string>,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt += 1)
    statuses.push((await cheapSignIn(target, ip, headers)).status);
  return statuses;
}
