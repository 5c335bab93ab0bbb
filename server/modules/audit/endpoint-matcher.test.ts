import { changePassword, signUpEmail } from "better-auth/api";
import { describe, expect, it } from "vitest";
import { matches, matchesPluginEndpoints } from "./endpoint-matcher";

describe("matches", () => {
  it("matches the calls of the endpoints it is given, by their definitions' paths", () => {
    const matcher = matches(changePassword, signUpEmail());
    expect(matcher({ path: "/change-password" })).toBe(true);
    expect(matcher({ path: "/sign-up/email" })).toBe(true);
    expect(matcher({ path: "/change-email" })).toBe(false);
    expect(matcher({})).toBe(false);
  });
});

describe("matchesPluginEndpoints", () => {
  const withPlugin = (path: string | undefined) => ({
    path,
    context: {
      getPlugin: (id: string) =>
        id === "admin" ? { endpoints: { removeUser: { path: "/admin/remove-user" } } } : null,
    },
  });

  it("matches a plugin's endpoint as the running instance registered it", () => {
    const matcher = matchesPluginEndpoints("admin", "removeUser");
    expect(matcher(withPlugin("/admin/remove-user"))).toBe(true);
    expect(matcher(withPlugin("/admin/ban-user"))).toBe(false);
  });

  it("matches nothing when the plugin or the endpoint is not there", () => {
    expect(matchesPluginEndpoints("organization", "removeMember")(withPlugin(undefined))).toBe(false);
    expect(matchesPluginEndpoints("admin", "banUser")(withPlugin(undefined))).toBe(false);
  });
});
