import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_ENDED_HEADER } from "../../common/ban-message";
import { fetchSession, sessionEndNotice } from "./session";

describe("sessionEndNotice", () => {
  afterEach(() => vi.unstubAllGlobals());
  const answer = (body: unknown, headers: Record<string, string> = {}) =>
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json(body, { headers })),
    );
  const session = { user: { id: "u1", name: "Ada" }, session: { id: "s1" } };

  it("is the banned notice once the server says a ban ended the session, until a session is found again", async () => {
    answer(null);
    await fetchSession();
    expect(sessionEndNotice()).toBeUndefined();

    answer(null, { [SESSION_ENDED_HEADER]: "banned" });
    expect(await fetchSession()).toBeNull();
    expect(sessionEndNotice()).toBe("account-banned");
    // The cookie went with that answer: the next one cannot tell, and the reason stays.
    answer(null);
    await fetchSession();
    expect(sessionEndNotice()).toBe("account-banned");

    answer(session);
    await fetchSession();
    expect(sessionEndNotice()).toBeUndefined();
  });

  it("ignores any other value of the header", async () => {
    answer(null, { [SESSION_ENDED_HEADER]: "You were hacked: call +1 555 0100" });
    await fetchSession();
    expect(sessionEndNotice()).toBeUndefined();
  });
});
