import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { DevMailPage } from "./dev-mail-page";

beforeEach(() =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json([])),
  ),
);
afterEach(() => vi.unstubAllGlobals());

describe("DevMailPage", () => {
  it("says the filter wants a whole address when a partial one matches nothing, not 'No mail yet'", async () => {
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
        <DevMailPage />
      </QueryClientProvider>,
    );
    await screen.findByText("No mail yet");
    await user.type(screen.getByLabelText("Recipient"), "ada@");
    await screen.findByText("No mail to this address");
    screen.getByText(/The filter matches whole addresses only/);
  });
});
