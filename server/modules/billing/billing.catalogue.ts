import { ERROR_CODES } from "../../../common/error-codes";
import { DomainError } from "../../../common/domain-error";
import type { Logger } from "../../logger";
import type { MeterCatalogue, ProductCatalogue } from "./billing.context";
import { toProviderError, type models, type ProviderClient } from "./billing.provider";
import { isOffered } from "./billing.pricing";

const CATALOGUE_TTL_MS = 60_000;

/** The provider's public, active products; cached for a minute, the last copy used while the provider is down. */
export function createProductCatalogue(provider: () => ProviderClient): ProductCatalogue {
  let cached: { products: models.Product[]; at: number } | undefined;
  return {
    async products() {
      if (cached && Date.now() - cached.at < CATALOGUE_TTL_MS) return cached.products;
      try {
        const page = await provider().products.list({ is_archived: false, limit: 100 });
        const items = page.items.filter((product) => product.visibility === "public" && !product.is_archived);
        cached = { products: items, at: Date.now() };
        return items;
      } catch (error) {
        if (cached) return cached.products;
        throw toProviderError("list the plans", error);
      }
    },
  };
}

/**
 * The provider's active meters: the event names they count (the values of their filters' `name` equals clauses,
 * nested filters included) and their names. Cached for a minute, the last copy used while the provider is down;
 * while it has never answered, `undefined`: the names cannot be checked, and usage is queued rather than lost (an
 * outage only delays it).
 */
export function createMeterCatalogue(provider: () => ProviderClient, logger: Logger): MeterCatalogue {
  let cached: { meters: models.Meter[]; at: number } | undefined;
  const meters = async (): Promise<models.Meter[] | undefined> => {
    if (cached && Date.now() - cached.at < CATALOGUE_TTL_MS) return cached.meters;
    try {
      const page = await provider().meters.list({ is_archived: false, limit: 100 });
      cached = { meters: page.items, at: Date.now() };
      return page.items;
    } catch (error) {
      if (cached) return cached.meters;
      logger.warn("billing: could not read the provider's meters; usage is queued unchecked, meters named by id", {
        error: toProviderError("list the meters", error).message,
      });
      return undefined;
    }
  };
  return {
    async eventNames() {
      const found = await meters();
      return found && [...new Set(found.flatMap((meter) => eventNamesOf(meter.filter)))].sort();
    },
    async names() {
      const found = await meters();
      return found && new Map(found.map((meter) => [meter.id, meter.name]));
    },
  };
}

/** The event names a meter filter counts: its `name` equals clauses, nested filters included. */
export function eventNamesOf(filter: models.Filter): string[] {
  return filter.clauses.flatMap((clause) => {
    if ("clauses" in clause) return eventNamesOf(clause);
    return clause.property === "name" && clause.operator === "eq" && typeof clause.value === "string"
      ? [clause.value]
      : [];
  });
}

/** The paid product a checkout or plan change may use: one on the catalogue, never an arbitrary provider id. */
export async function getOfferedProduct(catalogue: ProductCatalogue, productId: string): Promise<models.Product> {
  const product = (await catalogue.products()).find((candidate) => candidate.id === productId);
  if (!product || !isOffered(product))
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "Choose one of the plans on offer.");
  return product;
}
