import { describe, expect, test } from "vitest";
import { loadSandboxConfig, SandboxConfigError } from "./config";

describe("loadSandboxConfig", () => {
  test("listens on the loopback address by default and takes any token there", () => {
    expect(loadSandboxConfig({})).toMatchObject({ host: "127.0.0.1", port: 4100, accessToken: undefined });
  });

  test("refuses to face a network without its own token", () => {
    expect(() => loadSandboxConfig({ SANDBOX_HOST: "0.0.0.0" })).toThrow(SandboxConfigError);
    expect(() => loadSandboxConfig({ SANDBOX_HOST: "0.0.0.0" })).toThrow(
      /SANDBOX_ACCESS_TOKEN: required when SANDBOX_HOST is not a loopback address/,
    );
    expect(loadSandboxConfig({ SANDBOX_HOST: "0.0.0.0", SANDBOX_ACCESS_TOKEN: "a-token" })).toMatchObject({
      host: "0.0.0.0",
      accessToken: "a-token",
    });
  });
});
