import { isNotFound } from "@tanstack/react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../lib/query-client";
import { loadDevMail } from "./dev";

const meta = (devMailbox: boolean) => ({
  devMailbox,
  billingSandbox: false,
  socialProviders: [],
  organizations: { whoMayCreate: "everyone", isDeletionDisabled: false, limit: null },
});

function answering(devMailbox: boolean) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
    Response.json(String(input).startsWith("/api/meta") ? meta(devMailbox) : []),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe("/dev/mail", () => {
  it("is not found where the dev mailbox is off (production), and asks for no mail", async () => {
    const fetchMock = answering(false);
    const error = await loadDevMail(createQueryClient({ success: vi.fn(), error: vi.fn() })).catch((e) => e);
    expect(isNotFound(error)).toBe(true);
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(["/api/meta"]);
  });

  it("loads the mail where it is on", async () => {
    const fetchMock = answering(true);
    await loadDevMail(createQueryClient({ success: vi.fn(), error: vi.fn() }));
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toEqual(["/api/meta", "/api/dev/mail"]);
  });
});
