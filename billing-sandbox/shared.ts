import { createHash, randomBytes, randomUUID } from "node:crypto";
import { notFound } from "./api-errors";
import type { DiscountRecord, Kind, PriceRecord, RecordKinds } from "./records";
import type { Store } from "./store";

/** What every resource uses: ids and tokens, money (prices, discounts, test cards), and record lookups. */

/** A provider wire object, as the serializers build it. */
export type Json = Record<string, unknown>;

export const newId = () => randomUUID();

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Provider-style opaque tokens: a prefix and base62 characters (`polar_c_…`, `polar_cst_…`, `whsec_…`). */
export function newToken(prefix: string, length = 43): string {
  const bytes = randomBytes(length);
  return prefix + Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

/** A UUIDv4-shaped id derived from its parts: for objects the provider has but the sandbox computes on read. */
export function stableId(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join(":")).digest("hex");
  const variant = ((parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A record the caller asked for by id: missing is the caller's 404. */
export function findRecord<K extends Kind>(store: Store, kind: K, id: string): RecordKinds[K] {
  const record = store.get(kind, id);
  if (!record) throw notFound();
  return record;
}

/** A record another record points at: missing is a broken invariant, not the caller's mistake. */
export function requireRecord<K extends Kind>(store: Store, kind: K, id: string): RecordKinds[K] {
  const record = store.get(kind, id);
  if (!record) throw new Error(`${kind} ${id} is missing`);
  return record;
}

/** Prices live inside their product, so a price is found through the products. */
export function findPrice(store: Store, priceId: string): PriceRecord | undefined {
  for (const product of store.list("product")) {
    const price = product.prices.find((candidate) => candidate.id === priceId);
    if (price) return price;
  }
  return undefined;
}

/**
 * The test cards, by the token the hosted page sends for each card number. 4242… pays. 0002 is declined, at
 * checkout and on renewals when it is the card on file. 3155 needs the customer to confirm (3-D Secure) before
 * the first payment of a subscription goes through; once confirmed it pays renewals like 4242.
 */
export const PAYING_TOKEN = "tok_visa";
export const DECLINED_TOKEN = "tok_chargeDeclined";
export const ACTION_REQUIRED_TOKEN = "tok_threeDSecureRequired";
export const TEST_CARDS = new Map([
  [PAYING_TOKEN, { brand: "visa", last4: "4242" }],
  [DECLINED_TOKEN, { brand: "visa", last4: "0002" }],
  [ACTION_REQUIRED_TOKEN, { brand: "visa", last4: "3155" }],
]);

/** What one period of a price costs before discounts; metered prices are billed afterwards from usage. */
export function priceAmount(
  price: PriceRecord,
  options: { customAmount?: number | null; seats?: number | null } = {},
): number {
  switch (price.amount_type) {
    case "fixed":
      return price.price_amount ?? 0;
    case "custom":
      return options.customAmount ?? price.preset_amount ?? price.minimum_amount ?? 0;
    case "seat_based": {
      const seats = options.seats ?? price.seat_tiers?.minimum_seats ?? 1;
      const tier = price.seat_tiers?.tiers.find(
        (candidate) => seats >= candidate.min_seats && (candidate.max_seats === null || seats <= candidate.max_seats),
      );
      return seats * (tier?.price_per_seat ?? 0);
    }
    case "metered_unit":
      return 0;
  }
}

/** A metered price charges the units used beyond the credited ones, capped at `cap_amount`. */
export function meteredCharge(price: PriceRecord, balance: { consumed: number; credited: number }): number {
  const billable = Math.max(0, balance.consumed - balance.credited);
  const charge = Math.round(billable * Number(price.unit_amount ?? "0"));
  return price.cap_amount != null ? Math.min(charge, price.cap_amount) : charge;
}

export function discountFor(discount: DiscountRecord, amount: number): number {
  if (discount.type === "percentage") return Math.round((amount * (discount.basis_points ?? 0)) / 10_000);
  return Math.min(amount, discount.amount ?? 0);
}
