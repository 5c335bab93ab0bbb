import { afterEach, describe, expect, it, vi } from "vitest";
import { api, apiCall } from "./api-client";
import { ApiError } from "./api-error";

function answer(status: number, body?: unknown, contentType = "application/json") {
  return vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    body === undefined
      ? new Response(null, { status })
      : new Response(typeof body === "string" ? body : JSON.stringify(body), {
          status,
          headers: { "content-type": contentType },
        }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("apiCall with the typed clients", () => {
  it("calls the route's path with the session cookie and returns the JSON body", async () => {
    const meta = {
      devMailbox: true,
      billingSandbox: false,
      socialProviders: [],
      organizations: { whoMayCreate: "everyone", isDeletionDisabled: false, limit: null },
    };
    const fetch = answer(200, meta);
    vi.stubGlobal("fetch", fetch);

    await expect(apiCall(api.meta.index.$get())).resolves.toEqual(meta);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe("/api/meta");
    expect(init?.credentials).toBe("include");
  });

  it("fills in params and query", async () => {
    const fetch = answer(200, { items: [], total: 0 });
    vi.stubGlobal("fetch", fetch);

    await apiCall(
      api.organizations[":organizationId"].members.$get({
        param: { organizationId: "org_1" },
        query: { search: "ann", offset: "20" },
      }),
    );
    expect(String(fetch.mock.calls[0]![0])).toBe("/api/organizations/org_1/members?search=ann&offset=20");
  });

  it("returns undefined for a 204", async () => {
    vi.stubGlobal("fetch", answer(204));
    await expect(apiCall(api.devMail.index.$delete())).resolves.toBeUndefined();
  });

  it("throws an ApiError with the server's code and status, and the code's sentence for people, for a non-2xx answer", async () => {
    vi.stubGlobal("fetch", answer(404, { code: "NOT_FOUND", message: "invitation not found" }));
    const error = await apiCall(api.invitations[":invitationId"].$get({ param: { invitationId: "nope" } })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: "NOT_FOUND",
      message: "We could not find this. It may have been deleted; reload the page.",
    });
  });

  it("says how long to wait from a 429's Retry-After header", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ code: "TOO_MANY_REQUESTS", message: "slow down" }), {
            status: 429,
            headers: { "content-type": "application/json", "Retry-After": "42" },
          }),
      ),
    );
    const error = await apiCall(api.meta.index.$get()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 429,
      code: "TOO_MANY_REQUESTS",
      retryAfter: 42,
      message: "Too many attempts. Try again in 42 seconds.",
    });
  });

  it("still throws an ApiError when the error body is not the API's JSON (a proxy's HTML page)", async () => {
    vi.stubGlobal("fetch", answer(502, "<html>Bad gateway</html>", "text/html"));
    const error = await apiCall(api.meta.index.$get()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: undefined, message: "Something went wrong. Please try again." });
  });

  it("lets a network failure through as the fetch TypeError (errorMessage explains it as a connection problem)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await expect(apiCall(api.meta.index.$get())).rejects.toBeInstanceOf(TypeError);
  });
});
