// Live USPS rates through Shippo's own SDK (the `shippo` package): one shipment request with async=false
// answers with its rates. Everything about Shippo stays in this file.
import { Shippo } from "shippo";
import { AppError } from "~/domain/app-error";
import type { ShippingOption } from "~/domain/shipping";

const UNAVAILABLE = "Shipping rates are unavailable right now. Please try again.";
const TIMEOUT_MS = 8000;

/** The box a small print ships in: 8 × 6 × 4 in, weighed in whole grams (at least 1). */
function parcelFor(grams: number) {
  return {
    length: "8",
    width: "6",
    height: "4",
    distanceUnit: "in" as const,
    weight: String(Math.max(1, Math.ceil(grams))),
    massUnit: "g" as const,
  };
}

/** Live USPS rates for a small parcel; an outage or an answer we can't read is "unavailable" so the caller can say so. */
export async function shippoRates(
  apiKey: string,
  parcel: { fromZip: string; toZip: string; grams: number },
): Promise<ShippingOption[]> {
  const shippo = new Shippo({ apiKeyHeader: `ShippoToken ${apiKey}`, timeoutMs: TIMEOUT_MS });
  let rates;
  try {
    const shipment = await shippo.shipments.create({
      addressFrom: { zip: parcel.fromZip, country: "US" },
      addressTo: { zip: parcel.toZip, country: "US" },
      parcels: [parcelFor(parcel.grams)],
      async: false,
    });
    rates = shipment.rates;
  } catch (error) {
    throw new AppError("unavailable", UNAVAILABLE, { cause: error });
  }
  return rates
    .filter((rate) => rate.provider === "USPS" && rate.currency === "USD" && rate.servicelevel.token)
    .map((rate) => ({
      carrier: "USPS",
      service: rate.servicelevel.token!,
      description: rate.durationTerms
        ? `${rate.servicelevel.name ?? rate.servicelevel.token} (${rate.durationTerms})`
        : (rate.servicelevel.name ?? rate.servicelevel.token!),
      estimatedCost: Math.round(Number(rate.amount) * 100),
      estimatedDays: rate.estimatedDays ?? null,
    }))
    .filter((option) => Number.isSafeInteger(option.estimatedCost) && option.estimatedCost >= 0);
}
