// The one loader body of the three printer-search pages (/browse, /printers, /choose-printer): the
// place filter (typed, else the signed-in visitor's ZIP), the radius, the search, and the listing
// every one of them shows. Each page adds its own filters between the two steps.
import type { User } from "../../db/schema";
import { DEFAULT_RADIUS_MILES, toCardPrinter } from "~/domain/printer-listing";
import { mapTileUrl, numberParam, searchPrinters, type PrinterSearchInput } from "~/services/printers/search.server";
import { getSessionUser } from "~/utils/session.server";

export interface PrinterSearchAsk {
  q: URLSearchParams;
  user: User | null;
  locationText: string;
}

/** The query, the signed-in visitor (or null) and the typed place of a search page's request. */
export async function readPrinterSearch(request: Request): Promise<PrinterSearchAsk> {
  const q = new URL(request.url).searchParams;
  return { q, user: await getSessionUser(request), locationText: q.get("location")?.trim() ?? "" };
}

/** Searches near the asked place with the page's own filters; the place filters and the listing every page shows. */
export async function searchForPage(
  { q, user, locationText }: PrinterSearchAsk,
  pageSearch: Omit<PrinterSearchInput, "location" | "fallbackZip" | "radiusMiles">,
) {
  const result = await searchPrinters({
    location: locationText,
    fallbackZip: locationText ? null : user?.zipCode,
    radiusMiles: numberParam(q, "radius"),
    ...pageSearch,
  });
  return {
    result,
    filters: {
      location: locationText || (result.origin?.source === "profile" ? (user?.zipCode ?? "") : ""),
      radius: result.radiusMiles ?? numberParam(q, "radius") ?? DEFAULT_RADIUS_MILES,
    },
    listing: {
      printers: result.printers.map(toCardPrinter),
      total: result.total,
      origin: result.origin,
      locationNotFound: result.locationNotFound,
      locationChoices: result.locationChoices,
      locationSuggestions: result.locationSuggestions,
      locationText,
      tileUrl: mapTileUrl(),
    },
  };
}
