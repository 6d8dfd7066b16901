// The price range of a design before a printer is chosen: each nearby printer that can print it, at its own rate.
import { DEFAULT_RADIUS_MILES, MAX_PAGE_SIZE } from "~/domain/printer-listing";
import { priceRange, type PriceRange, type RangeRates } from "~/domain/price-range";
import type { QuoteInput } from "~/domain/pricing";
import { searchPrinters } from "./search.server";

/** What a design needs of a printer before one is chosen: its material and colour in stock for every copy, and size. */
export interface DesignNeeds {
  material?: string | null;
  color?: string | null;
  weightGrams?: number | null;
  size?: { x: number; y: number; z: number } | null;
}

/**
 * The rates of every available printer that can print a design (material, colour in stock, size), within the
 * default radius of the customer's ZIP when it is known ("near"), otherwise of all available
 * printers ("anywhere").
 */
export async function nearbyPrinterRates(needs: DesignNeeds, customer: { zipCode?: string | null } = {}): Promise<RangeRates> {
  const found = await searchPrinters({
    fallbackZip: customer.zipCode ?? null,
    radiusMiles: DEFAULT_RADIUS_MILES,
    available: true,
    material: needs.material ?? null,
    color: needs.color ?? null,
    weightGrams: needs.weightGrams ?? null,
    minX: needs.size?.x ?? null,
    minY: needs.size?.y ?? null,
    minZ: needs.size?.z ?? null,
    limit: MAX_PAGE_SIZE,
  });
  return { rates: found.printers.map((p) => p.ratePerKgCents), scope: found.origin ? "near" : "anywhere" };
}

/** The price range of a design before a printer is chosen: each nearby printer that can print it at its own rate. */
export async function designPriceRange(
  design: Omit<QuoteInput, "ratePerKgCents"> & Omit<DesignNeeds, "weightGrams">,
  customer: { zipCode?: string | null } = {},
): Promise<PriceRange> {
  const { material, color, size, ...quote } = design;
  return priceRange(await nearbyPrinterRates({ material, color, size, weightGrams: quote.weightGrams }, customer), quote);
}
