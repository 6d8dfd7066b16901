// Shipping: the built-in USPS-style table by zone and weight, live rates through the Shippo mock,
// and the 25-mile rule of local delivery.
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, test } from "vitest";
import { isAppError } from "../../app/domain/app-error";
import { shippingZone, tableShippingQuote } from "../../app/domain/shipping";
import { localDeliveryAvailable, milesBetweenZips, shippingQuote } from "../../app/services/shipping/rates.server";
import { server } from "../setup/msw";

afterEach(() => {
  delete process.env.SHIPPO_API_KEY;
});

describe("built-in table", () => {
  test("zones grow with distance and prices with zone and weight", () => {
    expect([0, 50, 51, 150, 300, 600, 1000, 1400, 1800, 2500].map(shippingZone)).toEqual([1, 1, 2, 2, 3, 4, 5, 6, 7, 8]);
    const near = tableShippingQuote(40, 10);
    const far = tableShippingQuote(40, 2000);
    const heavy = tableShippingQuote(3000, 2000);
    expect(near.estimated).toBe(true);
    expect(near.options.map((o) => o.service)).toEqual(["usps_ground_advantage", "usps_priority"]);
    expect(far.options[0]!.estimatedCost).toBeGreaterThan(near.options[0]!.estimatedCost);
    expect(heavy.options[0]!.estimatedCost).toBeGreaterThan(far.options[0]!.estimatedCost);
    expect(near.defaultOption).toEqual(near.options[0]);
  });

  test("distance comes from the gazetteer's ZIP centroids; local delivery within 25 miles", async () => {
    const berthoudToLoveland = milesBetweenZips("80513", "80537")!;
    expect(berthoudToLoveland).toBeLessThan(25);
    expect(localDeliveryAvailable("80513", "80537")).toBe(true);
    expect(localDeliveryAvailable("80513", "10001")).toBe(false);
    const quote = await shippingQuote({ originZip: "80513", destinationZip: "10001", weightGrams: 40 });
    expect(quote.options[0]!.description).toContain("estimated");
    expect(quote.options[0]!.description).toContain(`zone ${shippingZone(milesBetweenZips("80513", "10001")!)}`);
    const bad = await shippingQuote({ originZip: "80513", destinationZip: "1234", weightGrams: 40 }).catch((e: unknown) => e);
    expect(isAppError(bad) && bad.code).toBe("invalid");
  });
});

describe("Shippo", () => {
  test("with a key, live USPS rates (other carriers left out), cheapest as default", async () => {
    process.env.SHIPPO_API_KEY = "shippo_test_key";
    const quote = await shippingQuote({ originZip: "80513", destinationZip: "10001", weightGrams: 400 });
    expect(quote.estimated).toBe(false);
    expect(quote.options.map((o) => o.service)).toEqual(["usps_ground_advantage", "usps_priority"]);
    // the mock prices 4.75 + grams/500 with 100 g packaging: 500 g → 5.75
    expect(quote.options[0]!.estimatedCost).toBe(575);
    expect(quote.defaultOption?.service).toBe("usps_ground_advantage");
  });

  test("Shippo down or refusing the key: the customer is told rates are unavailable, nothing is made up", async () => {
    process.env.SHIPPO_API_KEY = "shippo_test_key";
    server.use(
      http.post(/^https:\/\/api\.goshippo\.com\/shipments\/?$/, () => HttpResponse.json({ detail: "busy" }, { status: 503 })),
    );
    const refused = await shippingQuote({ originZip: "80513", destinationZip: "10001", weightGrams: 400 }).catch((e) => e);
    expect(isAppError(refused) && refused.code).toBe("unavailable");
    expect(refused.message).toBe("Shipping rates are unavailable right now. Please try again.");
  });
});
