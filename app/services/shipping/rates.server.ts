// Shipping rates for an order: origin is always the chosen printer's ZIP. Without a Shippo key the
// built-in USPS-style table answers (labelled estimated); with SHIPPO_API_KEY, live USPS rates.
import { AppError } from "~/domain/app-error";
import { haversineMiles } from "~/domain/geo";
import {
  cheapestOption,
  isZip,
  LOCAL_DELIVERY_RADIUS_MILES,
  PACKAGING_GRAMS,
  tableShippingQuote,
  type ShippingQuote,
} from "~/domain/shipping";
import { lookupZip } from "~/services/gazetteer.server";
import { shippoRates } from "./shippo.server";

export interface RateRequest {
  originZip: string | null;
  destinationZip: string;
  weightGrams: number;
}

/** Miles between two ZIPs' centroids, or null when one is unknown to the gazetteer. */
export function milesBetweenZips(a: string | null | undefined, b: string | null | undefined): number | null {
  const from = lookupZip(a);
  const to = lookupZip(b);
  return from && to ? haversineMiles(from, to) : null;
}

export async function shippingQuote(input: RateRequest): Promise<ShippingQuote> {
  if (!isZip(input.destinationZip)) {
    throw new AppError("invalid", "Enter a 5-digit ZIP code.", { field: "deliveryZip" });
  }
  if (!isZip(input.originZip)) {
    throw new AppError("invalid", "This printer has no ZIP code to ship from. Choose pickup or another printer.");
  }
  const key = process.env.SHIPPO_API_KEY;
  if (key) {
    const options = await shippoRates(key, {
      fromZip: input.originZip,
      toZip: input.destinationZip,
      grams: input.weightGrams + PACKAGING_GRAMS,
    });
    if (options.length > 0) return { options, defaultOption: cheapestOption(options), estimated: false };
  }
  const miles = milesBetweenZips(input.originZip, input.destinationZip);
  if (miles === null) throw new AppError("invalid", "We don't know that ZIP code.", { field: "deliveryZip" });
  return tableShippingQuote(input.weightGrams, miles);
}

/** Local delivery is offered only within 25 miles of the printer (checked here, on the server). */
export function localDeliveryAvailable(printerZip: string | null | undefined, deliveryZip: string | null | undefined): boolean {
  const miles = milesBetweenZips(printerZip, deliveryZip);
  return miles !== null && miles <= LOCAL_DELIVERY_RADIUS_MILES;
}
