// Shippo's HTTP API (https://docs.goshippo.com): one shipment request answers with its rates.
// Everything about Shippo stays in this file.
import { AppError } from "~/domain/app-error";
import type { ShippingOption } from "~/domain/shipping";

export const SHIPPO_API = "https://api.goshippo.com";

interface ShippoRate {
  object_id: string;
  provider: string;
  amount: string;
  currency: string;
  estimated_days?: number | null;
  duration_terms?: string | null;
  servicelevel: { name: string; token: string };
}

/** Live USPS rates for a small parcel; an outage is "unavailable" so the caller can say so. */
export async function shippoRates(
  apiKey: string,
  parcel: { fromZip: string; toZip: string; grams: number },
): Promise<ShippingOption[]> {
  let response: Response;
  try {
    response = await fetch(`${SHIPPO_API}/shipments/`, {
      method: "POST",
      headers: { Authorization: `ShippoToken ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        address_from: { zip: parcel.fromZip, country: "US" },
        address_to: { zip: parcel.toZip, country: "US" },
        parcels: [
          {
            length: "8",
            width: "6",
            height: "4",
            distance_unit: "in",
            weight: String(Math.max(1, Math.ceil(parcel.grams))),
            mass_unit: "g",
          },
        ],
        async: false,
      }),
      signal: AbortSignal.timeout(8000),
    });
  } catch (error) {
    throw new AppError("unavailable", "Shipping rates are unavailable right now. Please try again.", { cause: error });
  }
  if (!response.ok) throw new AppError("unavailable", "Shipping rates are unavailable right now. Please try again.");
  const body = (await response.json()) as { rates?: ShippoRate[] };
  return (body.rates ?? [])
    .filter((rate) => rate.provider === "USPS" && rate.currency === "USD")
    .map((rate) => ({
      carrier: "USPS",
      service: rate.servicelevel.token,
      description: rate.duration_terms ? `${rate.servicelevel.name} (${rate.duration_terms})` : rate.servicelevel.name,
      estimatedCost: Math.round(Number(rate.amount) * 100),
      estimatedDays: rate.estimated_days ?? null,
    }))
    .filter((option) => Number.isSafeInteger(option.estimatedCost) && option.estimatedCost >= 0);
}
