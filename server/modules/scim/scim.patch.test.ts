import { describe, expect, it } from "vitest";
import { parseFilter } from "./scim.filter";
import { applyGroupPatch, applyUserPatch } from "./scim.patch";
import type { ScimUserState } from "./scim.schemas";

const user: ScimUserState = {
  userName: "ada@example.com",
  externalId: "00u1",
  email: "ada@example.com",
  givenName: "Ada",
  familyName: "Lovelace",
  displayName: null,
  active: true,
};

describe("a User PATCH (RFC 7644 section 3.5.2, Okta's and Entra ID's shapes)", () => {
  it("applies paths, value objects without a path, path keys and the core schema's URN", () => {
    expect(applyUserPatch(user, [{ op: "replace", value: { active: false } }]).active).toBe(false);
    expect(applyUserPatch(user, [{ op: "Replace", path: "active", value: "False" }]).active).toBe(false);
    expect(
      applyUserPatch(user, [
        { op: "Add", value: { "name.givenName": "Augusta", 'emails[type eq "work"].value': "AUGUSTA@example.com" } },
        { op: "replace", path: "urn:ietf:params:scim:schemas:core:2.0:User:displayName", value: "Countess" },
        { op: "remove", path: "externalId" },
      ]),
    ).toEqual({
      ...user,
      givenName: "Augusta",
      email: "augusta@example.com",
      displayName: "Countess",
      externalId: null,
    });
  });

  it("leaves out attributes the app does not keep and refuses unknown ones", () => {
    const ignored = applyUserPatch(user, [
      { op: "add", path: "title", value: "Engineer" },
      { op: "add", path: 'phoneNumbers[type eq "work"].value', value: "+1" },
      { op: "replace", path: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", value: "R&D" },
    ]);
    expect(ignored).toEqual(user);
    expect(() => applyUserPatch(user, [{ op: "replace", path: "shoeSize", value: 9 }])).toThrow(
      "The PATCH operation's path is not supported: shoesize",
    );
    expect(() => applyUserPatch(user, [{ op: "move", path: "active", value: true }])).toThrow(
      'Unknown PATCH operation "move": use add, replace or remove',
    );
    expect(() => applyUserPatch(user, [{ op: "remove", path: "userName" }])).toThrow("userName cannot be removed");
  });
});

describe("a Group PATCH", () => {
  const group = { displayName: "Eng", externalId: null, members: ["a", "b"] };

  it("adds, removes by list or by filter, replaces, and renames", () => {
    expect(
      applyGroupPatch(group, [{ op: "add", path: "members", value: [{ value: "c" }, { value: "a" }] }]).members,
    ).toEqual(["a", "b", "c"]);
    expect(applyGroupPatch(group, [{ op: "remove", path: 'members[value eq "A"]' }]).members).toEqual(["a", "b"]);
    expect(applyGroupPatch(group, [{ op: "remove", path: 'members[value eq "a"]' }]).members).toEqual(["b"]);
    expect(applyGroupPatch(group, [{ op: "Remove", path: "members", value: [{ value: "b" }] }]).members).toEqual(["a"]);
    expect(applyGroupPatch(group, [{ op: "replace", path: "members", value: [{ value: "z" }] }]).members).toEqual([
      "z",
    ]);
    expect(applyGroupPatch(group, [{ op: "remove", path: "members" }]).members).toEqual([]);
    expect(applyGroupPatch(group, [{ op: "replace", value: { id: "t1", displayName: "Platform" } }]).displayName).toBe(
      "Platform",
    );
  });
});

describe("a filter", () => {
  const attributes = { username: "userName", externalid: "externalId" } as const;

  it("reads comparisons joined by and, with quoted strings that may hold ' and '", () => {
    expect(parseFilter('userName eq "a and b" AND externalId sw "x\\"y"', attributes)).toEqual([
      { attribute: "userName", operator: "eq", value: "a and b" },
      { attribute: "externalId", operator: "sw", value: 'x"y' },
    ]);
    expect(parseFilter(undefined, attributes)).toEqual([]);
  });

  it("refuses other operators, attributes and grouping", () => {
    for (const filter of ['userName gt "a"', 'title eq "a"', 'userName eq "a" or userName eq "b"', "userName pr"]) {
      expect(() => parseFilter(filter, attributes), filter).toThrow("The filter is not supported");
    }
  });
});
