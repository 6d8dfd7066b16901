// msw v2 handler that stands in for Shippo's shipment call (POST https://api.goshippo.com/shipments),
// answering the way the real API does with async=false: the whole shipment object, its addresses and
// parcels echoed back with their object fields, and its rates[] (USPS and, as in real accounts, another
// carrier the product must leave out).
import { http, HttpResponse, type HttpHandler } from "msw";

interface ShipmentBody {
  address_from: { zip?: string; country: string };
  address_to: { zip?: string; country: string };
  parcels: { length: string; width: string; height: string; distance_unit: string; weight: string; mass_unit: string }[];
}

// the SDK posts to /shipments, older clients to /shipments/: Shippo answers both
export const shippoHandlers: HttpHandler[] = [
  http.post(/^https:\/\/api\.goshippo\.com\/shipments\/?$/, async ({ request }) => {
    if (!request.headers.get("authorization")?.startsWith("ShippoToken ")) {
      return HttpResponse.json({ detail: "Authentication credentials were not provided." }, { status: 401 });
    }
    const body = (await request.json()) as ShipmentBody;
    const grams = Number(body.parcels[0]?.weight ?? 0);
    const created = new Date().toISOString();
    const owner = "shippo-mock@printnear.test";
    const address = (id: string, a: ShipmentBody["address_from"]) => ({
      object_id: id,
      is_complete: false,
      name: "",
      company: "",
      street1: "",
      city: "",
      state: "",
      zip: a.zip ?? "",
      country: a.country,
      phone: "",
      email: "",
      is_residential: null,
      validation_results: {},
    });
    const rate = (token: string, name: string, base: number, days: number, provider = "USPS") => ({
      object_created: created,
      object_id: `rate_${token}`,
      object_owner: owner,
      shipment: "shp_mock",
      attributes: [],
      amount: (base + grams / 500).toFixed(2),
      currency: "USD",
      amount_local: (base + grams / 500).toFixed(2),
      currency_local: "USD",
      provider,
      provider_image_75: `https://shippo-static.s3.amazonaws.com/providers/75/${provider}.png`,
      provider_image_200: `https://shippo-static.s3.amazonaws.com/providers/200/${provider}.png`,
      servicelevel: { name, token, terms: "", extended_token: token, parent_servicelevel: null },
      estimated_days: days,
      arrives_by: null,
      duration_terms: `Delivery in ${days} business days.`,
      messages: [],
      carrier_account: `ca_${provider.toLowerCase()}_mock`,
      test: true,
      zone: "4",
    });
    return HttpResponse.json(
      {
        carrier_accounts: [],
        object_created: created,
        object_updated: created,
        object_id: "shp_mock",
        object_owner: owner,
        status: "SUCCESS",
        address_from: address("adr_from_mock", body.address_from),
        address_to: address("adr_to_mock", body.address_to),
        parcels: body.parcels.map((p, i) => ({
          object_id: `prcl_mock_${i}`,
          object_created: created,
          object_updated: created,
          object_owner: owner,
          object_state: "VALID",
          template: null,
          extra: {},
          length: p.length,
          width: p.width,
          height: p.height,
          distance_unit: p.distance_unit,
          weight: p.weight,
          mass_unit: p.mass_unit,
          metadata: "",
          test: true,
        })),
        shipment_date: created,
        address_return: address("adr_from_mock", body.address_from),
        customs_declaration: null,
        extra: {},
        rates: [
          rate("usps_ground_advantage", "Ground Advantage", 4.75, 4),
          rate("usps_priority", "Priority Mail", 8.9, 2),
          rate("ups_ground", "Ground", 11.2, 3, "UPS"),
        ],
        messages: [],
        metadata: "",
        test: true,
      },
      { status: 201 },
    );
  }),
];
