// A draft's price as every page shows it (decision 038): the chosen printer's total at its rate, or the range
// over the printers near the customer that stock its material and colour for every copy, through the one engine.
import type { PrintJob } from "../../../db/schema";
import { priceRange, ratesOfPrintersFor, type DesignPrice } from "~/domain/price-range";
import { DEFAULT_RADIUS_MILES, MAX_PAGE_SIZE } from "~/domain/printer-listing";
import type { DesignNeeds } from "~/services/printers/price-range.server";
import { searchPrinters } from "~/services/printers/search.server";
import { getPrinterRate, quoteDraft } from "./drafts.server";

/** What a draft needs of a printer: its material and colour for every copy's grams, and one copy's size. */
export function draftNeeds(draft: PrintJob): DesignNeeds {
  return {
    material: draft.material,
    color: draft.filamentColor,
    weightGrams: draft.estimatedWeightGrams,
    size:
      draft.boundingBoxX && draft.boundingBoxY && draft.boundingBoxZ
        ? { x: draft.boundingBoxX, y: draft.boundingBoxY, z: draft.boundingBoxZ }
        : null,
  };
}

const draftQuoteInput = (draft: PrintJob) => ({
  weightGrams: draft.estimatedWeightGrams,
  numberOfColors: draft.numberOfColors,
  printTimeMinutes: draft.printTimeMinutes,
  quantity: draft.quantity,
});

/** Each draft's price by id: one search for the printers near the customer, then each draft's own fit among them. */
export async function draftPrices(drafts: PrintJob[], customer: { zipCode?: string | null }): Promise<Map<number, DesignPrice>> {
  const prices = new Map<number, DesignPrice>();
  const open: PrintJob[] = [];
  for (const draft of drafts) {
    const printer = draft.printerId ? await getPrinterRate(draft.printerId) : null;
    if (printer?.isAvailable) {
      const quote = quoteDraft({ ...draftQuoteInput(draft), ratePerKgCents: printer.ratePerKgCents });
      prices.set(draft.id, { kind: "printer", cents: quote.customerPays, printerName: printer.name });
    } else open.push(draft);
  }
  if (open.length === 0) return prices;
  const found = await searchPrinters({
    fallbackZip: customer.zipCode ?? null,
    radiusMiles: DEFAULT_RADIUS_MILES,
    available: true,
    limit: MAX_PAGE_SIZE,
  });
  const nearby = found.printers.map((p) => ({ ...p, inventory: p.filamentInventory }));
  const scope = found.origin ? "near" : "anywhere";
  for (const draft of open) {
    const needs = draftNeeds(draft);
    const rates = ratesOfPrintersFor(nearby, {
      material: needs.material,
      color: needs.color,
      weightGrams: needs.weightGrams,
      minX: needs.size?.x,
      minY: needs.size?.y,
      minZ: needs.size?.z,
    });
    const { numberOfColors, ...rest } = draftQuoteInput(draft);
    prices.set(draft.id, priceRange({ rates, scope }, { ...rest, colors: numberOfColors }));
  }
  return prices;
}
