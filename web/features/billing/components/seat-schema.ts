import { z } from "zod";
import { checkoutBodySchema } from "../../../../common/billing.schemas";

/** The server's own seat rule (a whole number from 1 to SEATS_MAX), as the checkout body declares it. */
const seatsSchema = checkoutBodySchema.shape.seats.unwrap();

/**
 * A seat count for a form: the server's rule, plus what the page knows about this plan and organization (its
 * price's minimum and maximum, and the members already in it). An empty box reads as NaN, hence the first message.
 */
export function seatFormSchema({
  minSeats,
  maxSeats,
  inUse,
}: {
  minSeats: number | null;
  maxSeats: number | null;
  inUse: number;
}) {
  return z.object({
    seats: z
      .number({ error: "Enter a number of seats" })
      // The plan's maximum first: a count past it is told the plan's number, not the server's larger bound.
      .refine((seats) => maxSeats === null || seats <= maxSeats, {
        message: `This plan goes up to ${maxSeats} seats`,
        abort: true,
      })
      .pipe(seatsSchema)
      .refine(
        (seats) => minSeats === null || seats >= minSeats,
        `This plan starts at ${minSeats} seat${minSeats === 1 ? "" : "s"}`,
      )
      .refine(
        (seats) => seats >= inUse,
        `${inUse} member${inUse === 1 ? " is" : "s are"} in the organization: keep at least ${inUse} seat${inUse === 1 ? "" : "s"}, or remove members first`,
      ),
  });
}

/** The seat count a form starts with: what the organization uses, within what the plan allows. */
export function initialSeats({
  minSeats,
  maxSeats,
  inUse,
}: {
  minSeats: number | null;
  maxSeats: number | null;
  inUse: number;
}): number {
  const seats = Math.max(inUse, minSeats ?? 1, 1);
  return maxSeats === null ? seats : Math.min(seats, maxSeats);
}
