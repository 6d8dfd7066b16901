// msw v2 handler that stands in for Shippo's shipment call (POST https://api.goshippo.com/shipments/),
// answering the way the real API does with async=false: the shipment with its rates[].
import { http, HttpResponse, type HttpHandler } from "msw";

export const SHIPPO_API = "https://api.goshippo.com";

export const shippoHandlers: HttpHandler[] = [
  http.post(`${SHIPPO_API}/shipments/`, async ({ request }) => {
    if (!request.headers.get("authorization")?.startsWith("ShippoToken ")) {
      return HttpResponse.json({ detail: "Authentication credentials were not provided." }, { status: 401 });
    }
    const body = (await request.json()) as { parcels: { weight: string; mass_unit: string }[] };
    const grams = Number(body.parcels[0]?.weight ?? 0);
    const rate = (token: string, name: string, base: number, days: number, provider = "USPS") => ({
      object_id: `rate_${token}`,
      object_owner: "mock@example.test",
      shipment: "shp_mock",
      provider,
      amount: (base + grams / 500).toFixed(2),
      currency: "USD",
      amount_local: (base + grams / 500).toFixed(2),
      currency_local: "USD",
      estimated_days: days,
      duration_terms: `Delivery in ${days} business days.`,
      servicelevel: { name, token, terms: "" },
      attributes: [],
    });
    return HttpResponse.json({
      object_id: "shp_mock",
      status: "SUCCESS",
      address_from: { zip: "" },
      address_to: { zip: "" },
      rates: [
        rate("usps_ground_advantage", "Ground Advantage", 4.75, 4),
        rate("usps_priority", "Priority Mail", 8.9, 2),
        rate("ups_ground", "Ground", 11.2, 3, "UPS"),
      ],
      messages: [],
    });
  }),
];
