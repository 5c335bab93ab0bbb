import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  type CreatedOrganization,
  type TestUser,
} from "../../test/factories";
import { memberRow } from "../../test/organization-rows";
import { createTestApp, type TestApp } from "../../test/test-database";
import { searchMemberDirectory } from "./member-directory";
import { findMembers } from "./organizations.repository";

/**
 * A read's members search scans the organization's directory in memory (ADR 0037): it finds exactly what the
 * database's search finds, it reads the members' text once, and a change shows as soon as the change feed is read.
 * The read cache is driven by the test (its clock and its reads of the feed), as in server/db/read-cache.int.test.ts.
 */

let app: TestApp;
const statements: string[] = [];
let owner: TestUser;
let organization: CreatedOrganization;
const members: TestUser[] = [];
const clock = Date.now();

/** Names a search must find or miss exactly as the database does: case, accents, LIKE's own characters, a quote. */
const NAMES = ["Ann O'Neil", "Zoë Ünal", "Sure 100% Percent", "Under_score", "Back\\slash", "ANNA KARENINA"];

beforeAll(async () => {
  app = await createTestApp({ onQuery: (text) => statements.push(text), readCache: { poll: false, now: () => clock } });
  owner = await createVerifiedUser(app, { label: "Directory Owner" });
  organization = await createOrganizationWithOwner(owner, "Directory");
  for (const name of NAMES) {
    const member = await createVerifiedUser(app, { name });
    await addMember(owner, organization.id, member);
    members.push(member);
  }
  await app.services.readCache.pollNow();
});

afterAll(async () => {
  await app?.close();
});

let reads = 0;
/** The members page searched for `term`, each time a first read (the API ignores `read`); 200 or the test fails. */
async function search(term: string): Promise<{ total: number; names: string[]; statements: string[] }> {
  const start = statements.length;
  const response = await owner.client.get(
    `/api/organizations/${organization.id}/members?search=${encodeURIComponent(term)}&read=${(reads += 1)}`,
  );
  expect(response.status).toBe(200);
  const body = response.data as { total: number; members: Array<{ user: { name: string } }> };
  return {
    total: body.total,
    names: body.members.map((member) => member.user.name),
    statements: statements.slice(start).filter((text) => !text.includes("cache_invalidation")),
  };
}

/** Whether statements read the members' searched text: the directory's read, or a search in the database. */
const readsMemberText = (texts: string[]) => texts.some((text) => /member_search|lower\("user"\.name\)/.test(text));
/** How many of the statements since `start` read a directory. */
const directoryReads = (start: number) =>
  statements.slice(start).filter((text) => /as id, search from member_search|as search\s+from member/.test(text))
    .length;

describe("the members search in memory", () => {
  test("finds what the database search finds, term by term and page by page", async () => {
    const scope = { organizationId: organization.id, userId: owner.id, memberId: "", roles: ["owner"] };
    const terms = ["an", "AN", "%", "_", "\\", "zoë", "ZOË", "ünal", "o'n", "example", "user_", "nobody", "\u0001"];
    for (const term of terms)
      for (const offset of [0, 2, 50]) {
        const query = { search: term, limit: 2, offset };
        const inDatabase = await findMembers(app.db, scope, query);
        const inMemory = await findMembers(app.db, scope, query, app.services.readCache);
        expect(inMemory, `${JSON.stringify(term)} at ${offset}`).toEqual(inDatabase);
      }
    expect((await findMembers(app.db, scope, { search: "an", limit: 20, offset: 0 })).total).toBe(2);
  });

  test("reads the members' text once; a change shows once the feed is read, a write's at once", async () => {
    await search("karenina");
    expect(readsMemberText((await search("anna")).statements)).toBe(false);
    const [ann, zoe] = members as [TestUser, TestUser];
    // Renamed behind the app's back: the kept directory answers until the change feed is read.
    await app.db.updateTable("user").set({ name: "Grey Heron" }).where("id", "=", ann.id).execute();
    expect((await search("heron")).total).toBe(0);
    await app.services.readCache.pollNow();
    const renamed = await search("heron");
    expect(renamed).toMatchObject({ total: 1, names: ["Grey Heron"] });
    expect(readsMemberText(renamed.statements)).toBe(true);
    expect(readsMemberText((await search("o'n")).statements)).toBe(false);
    // Removed through the API: the write reads the feed before it answers.
    const zoeMember = await memberRow(app, organization.id, zoe.id);
    const removed = await owner.client.post("/api/auth/organization/remove-member", {
      memberIdOrEmail: zoeMember?.id,
      organizationId: organization.id,
    });
    expect(removed.status).toBe(200);
    expect(await search("zoë")).toMatchObject({ total: 0, names: [] });
  });

  test("searches that arrive together share one read; a directory past its size is not kept, and that is", async () => {
    const cache = app.services.readCache;
    const together = await createOrganizationWithOwner(owner, "Together");
    await cache.pollNow();
    let start = statements.length;
    const [first, second] = await Promise.all([
      searchMemberDirectory(app.db, together.id, "owner", cache),
      searchMemberDirectory(app.db, together.id, "owner", cache),
    ]);
    expect(first).toHaveLength(1);
    expect(second).toEqual(first);
    expect(directoryReads(start)).toBe(1);

    const crowded = await createOrganizationWithOwner(owner, "Crowded");
    await addMember(owner, crowded.id, members[5] as TestUser);
    await cache.pollNow();
    start = statements.length;
    expect(await searchMemberDirectory(app.db, crowded.id, "anna", cache, 1)).toBeUndefined();
    expect(await searchMemberDirectory(app.db, crowded.id, "anna", cache, 1)).toBeUndefined();
    expect(directoryReads(start)).toBe(1);
  });
});
