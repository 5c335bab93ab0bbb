import { describe, expect, it } from "vitest";
import { SEATS_MAX } from "../../../../common/billing.schemas";
import { seatFormSchema } from "./seat-schema";

const messageFor = (seats: number, maxSeats: number | null) =>
  seatFormSchema({ minSeats: 1, maxSeats, inUse: 1 })
    .safeParse({ seats })
    .error?.issues.map((i) => i.message);

describe("seatFormSchema", () => {
  it("gives one maximum: the plan's when it has one, however far past it the count is", () => {
    expect(messageFor(51, 50)).toEqual(["This plan goes up to 50 seats"]);
    expect(messageFor(SEATS_MAX + 1000, 50)).toEqual(["This plan goes up to 50 seats"]);
  });

  it("gives the server's maximum for a plan without its own", () => {
    expect(messageFor(SEATS_MAX + 1, null)).toEqual([`Use at most ${SEATS_MAX} seats`]);
    expect(messageFor(SEATS_MAX, null)).toBeUndefined();
  });
});
