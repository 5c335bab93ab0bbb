// The users the benches seed: 100,000 realistic people (names from many languages, e-mail and username habits, a few
// admins, banned and unverified accounts), generated from a fixed seed so every run measures the same data.
import type { Insertable, Kysely } from "kysely";
import type { DatabaseHandle } from "../server/db/database";
import type { Database } from "../server/db/schema";
import { seededRandom } from "../server/test/seeded-random";

export type SeededUser = Insertable<Database["user"]> & { id: string };

/** Rows per INSERT: well under SQLite's 32,766 bound parameters at 13 columns a row. */
const BATCH = 500;
const SEED = 20_240_601;

export const FIRST_NAMES = (
  "James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Charles " +
  "Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua " +
  "Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura " +
  "Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon " +
  "Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra Patrick Rachel Frank Carolyn Raymond Janet Jack Maria Dennis " +
  "Olivia Jerry Heather Tyler Aarav Wei Yuki Fatima Mohammed Sofia Lucas Chloé Björn Zoë Mateo Priya Hiroshi Ngozi Santiago Ingrid"
).split(" ");
export const LAST_NAMES = (
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore " +
  "Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill " +
  "Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins " +
  "Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward " +
  "Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Müller Schmidt Dubois Rossi Kowalski Novak Yamamoto Chen Wang Singh Patel " +
  "Okafor Silva Jensen O'Brien"
).split(" ");
/** One user in a thousand has one of these: what an admin searching for a particular person types. */
export const RARE_LAST_NAMES =
  "Okonkwo-Ridley Vanterpool Zbikowski Quattlebaum Przybylski Featherstonehaugh Wojciechowska Ekwueme".split(" ");
export const DOMAINS = (
  "gmail.com gmail.com gmail.com outlook.com outlook.com yahoo.com icloud.com proton.me hey.com fastmail.com acme-corp.example globex.example " +
  "initech.example umbrella.example stark.example"
).split(" ");

export const INITIALS = [..."ABCDEFGHJKLMNPRSTW"];
const ID_CHARACTERS = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"];

/** Shaped like better-auth's ids: 32 random letters and digits. */
export function newId(next: () => number = Math.random): string {
  return Array.from({ length: 32 }, () => ID_CHARACTERS[Math.floor(next() * ID_CHARACTERS.length)]).join("");
}

/** Lowercase ASCII, as people type names into addresses. */
const slug = (text: string) =>
  text
    .normalize("NFD")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();

function unique(taken: Set<string>, candidate: string, suffix: () => string): string {
  let value = candidate;
  while (taken.has(value)) value = `${candidate}${suffix()}`;
  taken.add(value);
  return value;
}

/** `count` users signed up over the two years before `now`, the same ones on every call. */
export function buildUsers(count: number, dialect: DatabaseHandle["dialect"], now: number): SeededUser[] {
  const next = seededRandom(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const chance = (probability: number) => next() < probability;
  const bool = (value: boolean) => (dialect === "postgres" ? value : Number(value));
  const emails = new Set<string>();
  const usernames = new Set<string>();
  const twoYears = 2 * 365 * 86_400_000;
  return Array.from({ length: count }, () => {
    const first = pick(FIRST_NAMES);
    const last = chance(0.001) ? pick(RARE_LAST_NAMES) : pick(LAST_NAMES);
    const name = chance(0.1) ? `${first} ${pick(INITIALS)}. ${last}` : `${first} ${last}`;
    const local = pick([
      `${slug(first)}.${slug(last)}`,
      `${slug(first)[0]}${slug(last)}`,
      `${slug(first)}_${slug(last)}`,
      `${slug(first)}${slug(last)}`,
    ]);
    const email = unique(emails, `${local}${chance(0.3) ? Math.floor(next() * 100) : ""}@${pick(DOMAINS)}`, () =>
      String(Math.floor(next() * 10_000)),
    );
    const username = chance(2 / 3)
      ? unique(
          usernames,
          pick([`${slug(first)}${slug(last)}`, `${slug(first)}_${slug(last)[0]}`, `${slug(last)}${slug(first)[0]}`]),
          () => String(Math.floor(next() * 10_000)),
        )
      : null;
    const createdAt = new Date(now - Math.floor(next() * twoYears)).toISOString();
    const banned = chance(0.01);
    return {
      id: newId(next),
      name,
      email,
      emailVerified: bool(!chance(0.2)),
      image: null,
      createdAt,
      updatedAt: createdAt,
      username,
      displayUsername: username,
      role: chance(0.01) ? "admin" : "user",
      banned: banned ? bool(true) : null,
      banReason: banned ? "Spam" : null,
      banExpires: banned && chance(0.5) ? new Date(now + Math.floor(next() * 30) * 86_400_000).toISOString() : null,
    };
  });
}

/** Inserts the users in one transaction, many rows per statement: the fast way to load 100,000 rows on both databases. */
export async function insertUsers(db: Kysely<Database>, users: readonly SeededUser[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let offset = 0; offset < users.length; offset += BATCH) {
      await trx
        .insertInto("user")
        .values(users.slice(offset, offset + BATCH))
        .execute();
    }
  });
}
